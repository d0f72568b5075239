import Foundation

extension WAVFile {
    /// A stereo sine of constant `amplitude` (0…1 of full scale) at 48 kHz, both channels alike:
    /// its RMS is `amplitude / √2`, whatever window a recording takes (1 kHz is 48 samples a
    /// period, so no window is far from whole periods). The file is made once per parameter set
    /// in the temporary directory and reused (written under a private name, then renamed, so two
    /// test processes never see half a file); returns its path.
    public static func sine(amplitude: Double = 0.5, seconds: Int = 60, frequency: Int = 1_000) throws -> String {
        let sampleRate = 48_000
        guard frequency > 0, sampleRate % frequency == 0, (0...1).contains(amplitude), seconds > 0 else {
            throw TestSupportError("sine: want a frequency dividing \(sampleRate), an amplitude in 0…1, seconds > 0")
        }
        let name = "mprisd-sine-\(frequency)Hz-\(Int(amplitude * 10_000))e-4-\(seconds)s-\(sampleRate).wav"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(name).path
        if FileManager.default.fileExists(atPath: path) { return path }
        let period = sampleRate / frequency
        let cycle: [Int16] = (0..<period).flatMap { index -> [Int16] in
            let value = Int16((amplitude * 32_767 * sin(2 * Double.pi * Double(index) / Double(period))).rounded())
            return [value, value]
        }
        let frames = seconds * sampleRate
        var samples: [Int16] = []
        samples.reserveCapacity(frames * 2)
        for _ in 0..<(frames / period) { samples.append(contentsOf: cycle) }
        let scratch = path + ".\(getpid()).\(UUID().uuidString.prefix(8))"
        try write(samples, sampleRate: sampleRate, channels: 2, to: scratch)
        guard rename(scratch, path) == 0 else {
            try? FileManager.default.removeItem(atPath: scratch)
            throw TestSupportError("cannot rename \(scratch): \(String(cString: strerror(errno)))")
        }
        return path
    }
}
