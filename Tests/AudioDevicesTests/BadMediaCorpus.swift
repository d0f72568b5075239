import CSndfile
import Foundation
import TestSupport

/// Writes the bad-media corpus: small valid files made by libsndfile, then every way they can be
/// broken (truncated, corrupt or huge header sizes, zero length, random bytes behind an audio
/// extension, a directory named x.wav, a FIFO, an unreadable file), plus Opus, Vorbis, FLAC and
/// MP3 streams cut at 50, 75 and 99 %.
enum BadMediaCorpus {
    /// Valid one-second files in each container this libsndfile writes.
    static func writeValid(in directory: TemporaryDirectory) throws -> [String] {
        var files: [String] = []
        for (name, format) in [("ok.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16), ("ok.flac", SF_FORMAT_FLAC | SF_FORMAT_PCM_16),
                               ("ok.ogg", SF_FORMAT_OGG | SF_FORMAT_VORBIS)] {
            var info = SF_INFO(frames: 0, samplerate: 8000, channels: 1, format: Int32(format), sections: 0, seekable: 0)
            let path = directory.file(name)
            guard let file = sf_open(path, Int32(SFM_WRITE), &info) else { continue }
            var samples = (0..<8000).map { Float(sin(Double($0) / 10)) * 0.5 }
            sf_writef_float(file, &samples, 8000)
            sf_close(file)
            files.append(path)
        }
        return files
    }

    /// The bad files made from `valid` (plus the special ones), each with what it is.
    static func writeBad(from valid: [String], in directory: TemporaryDirectory, seed: UInt64) throws -> [String] {
        var rng = SeededRNG(seed: seed)
        var bad: [String] = []
        func write(_ name: String, _ bytes: [UInt8]) throws {
            try TestAudio.writeBytes(directory.file(name), bytes)
            bad.append(directory.file(name))
        }
        for path in valid {
            let bytes = try TestAudio.readBytes(path)
            let ext = (path as NSString).pathExtension
            let base = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            for cut in [1, 4, 12, 30, 44, 100] where cut < bytes.count {
                try write("\(base)-cut\(cut).\(ext)", Array(bytes.prefix(cut)))
            }
            var corrupt = bytes
            for index in 0..<min(64, corrupt.count) where index % 3 == 0 { corrupt[index] ^= 0xFF }
            try write("\(base)-corrupt.\(ext)", corrupt)
        }
        // RIFF and fmt chunk sizes of 0xFFFFFFFF, and a data chunk claiming 4 GB.
        if let wav = valid.first(where: { $0.hasSuffix(".wav") }) {
            let bytes = try TestAudio.readBytes(wav)
            for (name, offset) in [("riff-huge.wav", 4), ("fmt-huge.wav", 16), ("data-huge.wav", 40)] {
                var copy = bytes
                for index in offset..<(offset + 4) { copy[index] = 0xFF }
                try write(name, copy)
            }
        }
        // Compressed streams cut at 50, 75 and 99 % (short, as the player plays what decodes).
        for (fileExtension, format) in compressedFormats {
            bad += try writeTruncated(fileExtension, format: format, seconds: 0.25, in: directory)
        }
        try write("empty.wav", [])
        for ext in ["flac", "wav", "ogg", "mp3"] {
            try write("noise.\(ext)", (0..<8192).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        }
        let folder = directory.file("x.wav")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        bad.append(folder)
        let fifo = directory.file("fifo.wav")
        guard mkfifo(fifo, 0o644) == 0 else { throw TestSupportError("mkfifo: errno \(errno)") }
        bad.append(fifo)
        try write("unreadable.flac", (0..<4096).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        chmod(directory.file("unreadable.flac"), 0)
        return bad
    }
}
