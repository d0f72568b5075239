import AudioDevices
import Foundation
import TestSupport
import XCTest

/// Compressed files cut at 50, 75 and 99 %: the decoder reports an unknown length rather than an
/// absurd one, and the real player plays the good files around them and exits 0 — a length
/// libsndfile cannot measure must never bring the queue down.
final class BadMediaCorpusTruncatedTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    func testEveryCompressedFormatIsWritten() {
        let written = Set(BadMediaCorpus.compressedFormats.map(\.fileExtension))
        XCTAssertEqual(written, ["opus", "ogg", "flac", "mp3"], "Debian's libsndfile writes all four")
    }

    func testTruncatedFilesHaveAKnownLengthOrNone() throws {
        for (fileExtension, format) in BadMediaCorpus.compressedFormats {
            for path in try BadMediaCorpus.writeTruncated(fileExtension, format: format, seconds: 1, in: directory) {
                guard let file = try? AudioFile(path: path) else { continue }
                if let length = file.info.length {
                    XCTAssertLessThanOrEqual(length, .seconds(2), "\(path): \(file.info.frames) frames")
                }
            }
        }
    }

    func testPlayerPlaysTheGoodFilesAroundTruncatedOnes() async throws {
        var environment = TestBus.environment(session: nil, system: nil)
        environment["XDG_CONFIG_HOME"] = directory.file("config")
        environment["XDG_STATE_HOME"] = directory.file("state")
        let first = directory.file("first.wav")
        let last = directory.file("last.wav")
        try WAVFile.writeCountingTone(seconds: 0.2, to: first)
        try WAVFile.writeCountingTone(seconds: 0.2, to: last)
        for (fileExtension, format) in BadMediaCorpus.compressedFormats {
            let cut = try BadMediaCorpus.writeTruncated(fileExtension, format: format, seconds: 0.4, in: directory)
            let result = try await runProgram(Products.path("mprisd"), ["play", "--device", "null", first] + cut + [last],
                                              environment: environment, timeout: .seconds(30))
            XCTAssertEqual(result.status, 0, "\(fileExtension): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("▶ first"), "\(fileExtension): the first good file plays:\n\(result.stderr)")
            XCTAssertTrue(result.stderr.contains("▶ last"), "\(fileExtension): the last good file plays:\n\(result.stderr)")
            if fileExtension == "opus" {
                // libsndfile cannot measure a cut Opus stream: the length is unknown, no total shown.
                XCTAssertTrue(result.stderr.contains("▶ tone-cut99pct  0:00\n"), result.stderr)
            }
        }
    }
}
