import AudioDevices
import Foundation
import TestSupport
import XCTest

/// The bad-media corpus through the real player and through the decoder: every bad file is
/// skipped with a message and the queue goes on to the good track at its end; a seeded mutation
/// fuzz of small valid files never crashes the decoder and fails only with `AudioFileError`.
final class BadMediaCorpusTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    func testPlayerSkipsEveryBadFileAndPlaysTheGoodOneAtTheEnd() async throws {
        let valid = try BadMediaCorpus.writeValid(in: directory)
        let bad = try BadMediaCorpus.writeBad(from: valid, in: directory, seed: 7)
        let good = directory.file("zz-good.wav")
        try WAVFile.writeCountingTone(seconds: 0.5, to: good)
        var environment = TestBus.environment(session: nil, system: nil)
        environment["XDG_CONFIG_HOME"] = directory.file("config")
        environment["XDG_STATE_HOME"] = directory.file("state")
        let started = ContinuousClock.now
        let result = try await runProgram(Products.path("mprisd"), ["play", "--device", "null"] + bad + [good],
                                          environment: environment, timeout: .seconds(30))
        print("badmedia: \(bad.count) bad files and the good one played in \(ContinuousClock.now - started)")
        XCTAssertEqual(result.status, 0, result.stderr)
        // Files that decode as far as they go (a truncated or damaged stream) may play in part; every
        // other one is named in a message.
        for path in bad where !result.stderr.contains(path) {
            XCTAssertTrue(path.contains("-cut") || path.contains("-corrupt") || path.contains("huge"),
                          "\(path) is neither named nor a partly playable file:\n\(result.stderr)")
        }
        for name in ["empty.wav", "noise.mp3", "noise.flac", "x.wav", "fifo.wav"] {
            XCTAssertTrue(result.stderr.contains(directory.file(name)), "\(name) is skipped with a message:\n\(result.stderr)")
        }
        XCTAssertTrue(result.stderr.contains("▶ zz-good"), "the good track at the end is played:\n\(result.stderr)")
    }

    func testSeededMutationsOfValidFilesFailOnlyWithAudioFileErrors() throws {
        let valid = try BadMediaCorpus.writeValid(in: directory)
        XCTAssertGreaterThanOrEqual(valid.count, 2)
        var rng = SeededRNG(seed: 0x6D70_7269_7364_0003)
        var opened = 0, refused = 0, readErrors = 0, frames = 0
        let rounds = 600
        let started = ContinuousClock.now
        for round in 0..<rounds {
            var bytes = try TestAudio.readBytes(valid[round % valid.count])
            for _ in 0..<(1 + Int(rng.next() % 16)) {
                let index = Int(rng.next() % UInt64(min(bytes.count, rng.next() % 2 == 0 ? 256 : bytes.count)))
                bytes[index] = UInt8(truncatingIfNeeded: rng.next())
            }
            if rng.next() % 4 == 0 { bytes = Array(bytes.prefix(Int(rng.next() % UInt64(bytes.count)))) }
            let path = directory.file("m\(round).\((valid[round % valid.count] as NSString).pathExtension)")
            try TestAudio.writeBytes(path, bytes)
            do {
                let file = try AudioFile(path: path)
                opened += 1
                var buffer = [Float](repeating: 0, count: 4096 * max(file.info.channels, 1))
                var total = 0
                while total < 10_000_000 {
                    let got = try buffer.withUnsafeMutableBufferPointer { try file.read(into: $0) }
                    if got == 0 { break }
                    total += got
                }
                frames += total
            } catch let error as AudioFileError {
                if case .readFailed = error { readErrors += 1 } else { refused += 1 }
            } catch {
                XCTFail("round \(round): not an AudioFileError: \(error)")
            }
            unlink(path)
        }
        print("badmedia: decoder fuzz: \(rounds) mutated files: \(opened) opened (\(frames) frames), \(refused) refused, "
              + "\(readErrors) decoding errors; \(ContinuousClock.now - started)")
        XCTAssertEqual(opened + refused, rounds)
        XCTAssertGreaterThan(refused, 0)
    }
}
