import Foundation

/// Writes 16-bit PCM WAV files for tests, byte by byte (no encoder library involved).
public enum WAVFile {
    /// Writes interleaved `samples` (channels × frames) as a canonical 44-byte-header WAV.
    public static func write(_ samples: [Int16], sampleRate: Int, channels: Int, to path: String) throws {
        var data = Data()
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        let bytes = UInt32(samples.count * 2)
        data.append(contentsOf: Array("RIFF".utf8)); u32(36 + bytes)
        data.append(contentsOf: Array("WAVE".utf8))
        data.append(contentsOf: Array("fmt ".utf8)); u32(16); u16(1); u16(UInt16(channels))
        u32(UInt32(sampleRate)); u32(UInt32(sampleRate * channels * 2)); u16(UInt16(channels * 2)); u16(16)
        data.append(contentsOf: Array("data".utf8)); u32(bytes)
        for sample in samples { withUnsafeBytes(of: sample.littleEndian) { data.append(contentsOf: $0) } }
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// A stereo tone of `seconds` at 44.1 kHz whose samples count up (so any lost, repeated or
    /// reordered frame shows in a byte comparison), written to `path`; returns the samples.
    @discardableResult
    public static func writeCountingTone(seconds: Double, to path: String, sampleRate: Int = 44_100) throws -> [Int16] {
        let frames = Int(seconds * Double(sampleRate))
        var samples: [Int16] = []
        samples.reserveCapacity(frames * 2)
        for frame in 0..<frames {
            let value = Int16(truncatingIfNeeded: (frame % 20_000) - 10_000)
            samples.append(value)
            samples.append(value / 2)
        }
        try write(samples, sampleRate: sampleRate, channels: 2, to: path)
        return samples
    }
}
