import AudioDevices
import XCTest

/// Every way a queued file can be unplayable gives its own typed error and a message that says what
/// is wrong with which file.
final class BadFileTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    private func openError(_ path: String) -> AudioFileError? {
        do {
            _ = try AudioFile(path: path)
            return nil
        } catch {
            return error
        }
    }

    func testMissingFile() {
        let path = directory.file("nothing.flac")
        XCTAssertEqual(openError(path), .notFound(path: path))
        XCTAssertEqual(openError(path)?.description, "\(path): no such file")
    }

    func testDirectory() {
        XCTAssertEqual(openError(directory.path), .isDirectory(path: directory.path))
        XCTAssertEqual(openError(directory.path)?.description, "\(directory.path): is a directory, not an audio file")
    }

    func testZeroLengthFile() throws {
        let path = directory.file("empty.wav")
        try TestAudio.writeBytes(path, [])
        XCTAssertEqual(openError(path), .empty(path: path))
        XCTAssertEqual(openError(path)?.description, "\(path): empty file")
    }

    func testRandomBytes() throws {
        let path = directory.file("noise.wav")
        var generator = SystemRandomNumberGenerator()
        try TestAudio.writeBytes(path, (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) })
        guard case .notDecodable(path, let reason)? = openError(path) else {
            return XCTFail("random bytes: \(String(describing: openError(path)))")
        }
        XCTAssertFalse(reason.isEmpty)
        XCTAssertEqual(openError(path)?.description.hasPrefix("\(path): not a playable audio file: "), true)
    }

    func testWAVTruncatedInsideItsHeader() throws {
        let whole = directory.file("whole.wav")
        try TestAudio.write(whole, .wav16, sampleRate: 44_100, channels: 2,
                            samples: TestAudio.samples(frames: 1000, channels: 2))
        let path = directory.file("truncated.wav")
        try TestAudio.writeBytes(path, Array(try TestAudio.readBytes(whole).prefix(30)))
        guard case .notDecodable(path, let reason)? = openError(path) else {
            return XCTFail("truncated header: \(String(describing: openError(path)))")
        }
        XCTAssertFalse(reason.isEmpty)
    }

    func testWAVTruncatedInsideItsDataPlaysWhatIsThere() throws {
        let whole = directory.file("whole.wav")
        let samples = TestAudio.samples(frames: 1000, channels: 2)
        try TestAudio.write(whole, .wav16, sampleRate: 44_100, channels: 2, samples: samples)
        let path = directory.file("cut.wav")
        let bytes = try TestAudio.readBytes(whole)
        try TestAudio.writeBytes(path, Array(bytes.prefix(bytes.count - 400 * 4)))

        let file = try AudioFile(path: path)
        XCTAssertEqual(file.info.frames, 600, "libsndfile trims the length to the data present")
        var buffer = [Float](repeating: 0, count: 2000)
        XCTAssertEqual(try buffer.withUnsafeMutableBufferPointer { try file.read(into: $0) }, 600)
        XCTAssertEqual(Array(buffer[0..<1200]), samples[0..<1200].map { Float($0) / 32768 })
    }

    func testAnExtensionThisLibsndfileLacksIsNamed() throws {
        let path = directory.file("song.m4a")
        try TestAudio.writeBytes(path, Array("ftypM4A not really".utf8) + [UInt8](repeating: 7, count: 500))
        guard case .notDecodable(path, let reason)? = openError(path) else {
            return XCTFail("m4a: \(String(describing: openError(path)))")
        }
        XCTAssertTrue(reason.contains("AAC is not supported by this libsndfile"), reason)
    }
}

extension BadFileTests {
    func testATruncatedFLACGivesWhatItHasThenADecodingError() throws {
        let samples = TestAudio.samples(frames: 48_000, channels: 2)
        let whole = directory.file("whole.flac")
        try TestAudio.write(whole, .flac16, sampleRate: 48_000, channels: 2, samples: samples)
        let path = directory.file("cut.flac")
        let bytes = try TestAudio.readBytes(whole)
        try TestAudio.writeBytes(path, Array(bytes.prefix(bytes.count / 2)))

        let file = try AudioFile(path: path)
        var decoded: [Float] = []
        var buffer = [Float](repeating: 0, count: 4096 * 2)
        var failure: AudioFileError?
        do {
            while true {
                let frames = try buffer.withUnsafeMutableBufferPointer { try file.read(into: $0) }
                if frames == 0 { break }
                decoded += buffer[0..<(frames * 2)]
            }
        } catch {
            failure = error as? AudioFileError
        }
        guard case .readFailed(path, let reason)? = failure else {
            return XCTFail("expected a decoding error, got \(String(describing: failure))")
        }
        XCTAssertTrue(reason.contains("lost sync"), reason)
        XCTAssertEqual(failure?.description.hasPrefix("\(path): decoding failed: "), true)
        XCTAssertGreaterThan(decoded.count, 10_000 * 2, "the frames before the damage are delivered")
        XCTAssertLessThan(decoded.count, 48_000 * 2)
        XCTAssertEqual(decoded, samples[0..<decoded.count].map { Float($0) / 32768 })
    }
}
