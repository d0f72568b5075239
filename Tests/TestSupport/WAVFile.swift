import Foundation

/// Writes 16-bit PCM WAV files for tests, byte by byte (no encoder library involved).
public enum WAVFile {
    /// Writes interleaved `samples` (channels × frames) as a canonical WAV (44-byte header), with
    /// `info` as a `LIST`/`INFO` chunk before the data when given: four-letter RIFF tags such as
    /// `IGNR` (genre) and `INAM` (title), which mpv reads as the file's `genre` and `title`.
    public static func write(_ samples: [Int16], sampleRate: Int, channels: Int, to path: String,
                             info: [(tag: String, value: String)] = []) throws {
        var data = Data()
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        let list = infoChunk(info)
        let bytes = UInt32(samples.count * 2)
        data.append(contentsOf: Array("RIFF".utf8)); u32(36 + UInt32(list.count) + bytes)
        data.append(contentsOf: Array("WAVE".utf8))
        data.append(contentsOf: Array("fmt ".utf8)); u32(16); u16(1); u16(UInt16(channels))
        u32(UInt32(sampleRate)); u32(UInt32(sampleRate * channels * 2)); u16(UInt16(channels * 2)); u16(16)
        data.append(list)
        data.append(contentsOf: Array("data".utf8)); u32(bytes)
        for sample in samples { withUnsafeBytes(of: sample.littleEndian) { data.append(contentsOf: $0) } }
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// `LIST` `INFO` with one NUL-terminated, even-padded sub-chunk per tag; empty for no tags.
    private static func infoChunk(_ info: [(tag: String, value: String)]) -> Data {
        guard !info.isEmpty else { return Data() }
        var body = Data("INFO".utf8)
        for (tag, value) in info {
            var text = Data(value.utf8)
            text.append(0)
            body.append(contentsOf: Array(tag.utf8.prefix(4)))
            withUnsafeBytes(of: UInt32(text.count).littleEndian) { body.append(contentsOf: $0) }
            body.append(text)
            if text.count % 2 == 1 { body.append(0) }
        }
        var chunk = Data("LIST".utf8)
        withUnsafeBytes(of: UInt32(body.count).littleEndian) { chunk.append(contentsOf: $0) }
        chunk.append(body)
        return chunk
    }

    /// A stereo tone of `seconds` at 44.1 kHz whose samples count up (so any lost, repeated or
    /// reordered frame shows in a byte comparison), written to `path`; returns the samples.
    @discardableResult
    public static func writeCountingTone(seconds: Double, to path: String, sampleRate: Int = 44_100,
                                         info: [(tag: String, value: String)] = []) throws -> [Int16] {
        let frames = Int(seconds * Double(sampleRate))
        var samples: [Int16] = []
        samples.reserveCapacity(frames * 2)
        for frame in 0..<frames {
            let value = Int16(truncatingIfNeeded: (frame % 20_000) - 10_000)
            samples.append(value)
            samples.append(value / 2)
        }
        try write(samples, sampleRate: sampleRate, channels: 2, to: path, info: info)
        return samples
    }
}
