import CSndfile
import Foundation
import TestSupport

/// Compressed streams cut part-way: libsndfile cannot always measure what is left (a truncated
/// Ogg Opus reports `Int64.max` frames), so the player must take the length as unknown and play
/// what decodes.
extension BadMediaCorpus {
    /// The compressed containers this libsndfile writes, with their extensions.
    static var compressedFormats: [(fileExtension: String, format: Int32)] {
        let candidates: [(String, Int)] = [("opus", SF_FORMAT_OGG | SF_FORMAT_OPUS), ("ogg", SF_FORMAT_OGG | SF_FORMAT_VORBIS),
                                           ("flac", SF_FORMAT_FLAC | SF_FORMAT_PCM_16),
                                           ("mp3", SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III)]
        return candidates.compactMap { name, format in
            var info = SF_INFO(frames: 0, samplerate: 48000, channels: 2, format: Int32(format), sections: 0, seekable: 0)
            return sf_format_check(&info) != 0 ? (name, Int32(format)) : nil
        }
    }

    /// A `seconds` long stereo 48 kHz tone in `format`, written by libsndfile.
    static func writeTone(_ path: String, format: Int32, seconds: Double) throws {
        let frames = Int(48000 * seconds)
        var info = SF_INFO(frames: 0, samplerate: 48000, channels: 2, format: format, sections: 0, seekable: 0)
        guard let file = sf_open(path, Int32(SFM_WRITE), &info) else {
            throw TestSupportError("cannot write \(path): \(String(cString: sf_strerror(nil)))")
        }
        var samples = (0..<(frames * 2)).map { Float(sin(Double($0 / 2) / 15)) * 0.4 }
        sf_writef_float(file, &samples, sf_count_t(frames))
        sf_close(file)
    }

    /// The tone in `format` cut at 50, 75 and 99 % of its bytes.
    static func writeTruncated(_ fileExtension: String, format: Int32, seconds: Double,
                               in directory: TemporaryDirectory) throws -> [String] {
        let whole = directory.file("tone-whole.\(fileExtension)")
        try writeTone(whole, format: format, seconds: seconds)
        let bytes = try TestAudio.readBytes(whole)
        return try [50, 75, 99].map { percent in
            let path = directory.file("tone-cut\(percent)pct.\(fileExtension)")
            try TestAudio.writeBytes(path, Array(bytes.prefix(bytes.count * percent / 100)))
            return path
        }
    }
}
