import CSndfile
import Foundation
import XCTest

/// A temporary directory per test, removed afterwards.
final class TemporaryDirectory {
    let path: String

    init() throws {
        let template = NSTemporaryDirectory() + "audiodevices-XXXXXX"
        var bytes = Array(template.utf8CString)
        guard mkdtemp(&bytes) != nil else { throw CocoaError(.fileWriteUnknown) }
        path = String(decoding: bytes.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func file(_ name: String) -> String { path + "/" + name }
}

/// Test audio written by libsndfile itself, so what the decoder must return is known sample by sample.
enum TestAudio {
    enum Container {
        case wav16, flac16

        var format: Int32 {
            switch self {
            case .wav16: return Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
            case .flac16: return Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16)
            }
        }
    }

    /// A counting pattern that walks through the whole 16-bit range, different per channel, so a
    /// swapped channel, a dropped frame or an off-by-one seek shows.
    static func samples(frames: Int, channels: Int) -> [Int16] {
        var result = [Int16](repeating: 0, count: frames * channels)
        for frame in 0..<frames {
            for channel in 0..<channels {
                let value = (frame * 331 + channel * 12_345) % 65_536 - 32_768
                result[frame * channels + channel] = Int16(value)
            }
        }
        return result
    }

    /// Writes `samples` with `sf_writef_short`, and the given tags with `sf_set_string`.
    static func write(_ path: String, _ container: Container, sampleRate: Int, channels: Int,
                      samples: [Int16], tags: [Int32: String] = [:]) throws {
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = Int32(channels)
        info.format = container.format
        guard let file = sf_open(path, Int32(SFM_WRITE), &info) else {
            XCTFail("sf_open for writing \(path): \(String(cString: sf_strerror(nil)))")
            throw CocoaError(.fileWriteUnknown)
        }
        defer { sf_close(file) }
        for (type, text) in tags.sorted(by: { $0.key < $1.key }) {
            XCTAssertEqual(sf_set_string(file, type, text), 0, "sf_set_string \(type)")
        }
        let written = samples.withUnsafeBufferPointer {
            sf_writef_short(file, $0.baseAddress, sf_count_t(samples.count / channels))
        }
        XCTAssertEqual(Int(written), samples.count / channels)
    }

    static func writeBytes(_ path: String, _ bytes: [UInt8]) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    static func readBytes(_ path: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
