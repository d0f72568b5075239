import Foundation
import TestSupport
import XCTest

/// Pausing and resuming at random points repeats nothing and skips nothing (issue 18): the player
/// keeps a deep buffer queued, and a pause must stop the device where the listener is, not at the
/// end of what was decoded. The output is a `file` PCM over a real-time PulseAudio null sink: the
/// capture holds exactly what the device was given, in real time, so the bytes must be the decoded
/// samples once each, in order.
final class PlayPauseExactnessTests: PacedCardTestCase {
    func testPausesAndResumesAtRandomPointsCaptureExactlyTheDecodedSamples() async throws {
        var random = SeededRNG(seed: UInt64(UInt32(truncatingIfNeeded: Int(Date().timeIntervalSince1970))))
        let capture = path("played.raw")
        let source = path("counting.wav")
        let samples = try WAVFile.writeCountingTone(seconds: 7, to: source)
        let player = try play(["--device", "paced", "--name", "exact", source],
                              environment: try pacedEnvironment([("paced", capture)]))
        try await waitUntil("playing") { try await self.playerctl("-p", "exact", "status") == "Playing" }

        var pauses: [Int] = []
        for _ in 0..<3 {
            let playFor = Int.random(in: 300...1_200, using: &random)
            pauses.append(playFor)
            try await Task.sleep(for: .milliseconds(playFor))  // time is the subject here: play for that long
            try await playerctl("-p", "exact", "pause")
            try await waitUntil("paused") { try await self.playerctl("-p", "exact", "status") == "Paused" }
            try await Task.sleep(for: .milliseconds(Int.random(in: 100...500, using: &random)))  // paused that long
            try await playerctl("-p", "exact", "play")
            try await waitUntil("playing again") { try await self.playerctl("-p", "exact", "status") == "Playing" }
        }
        let status = await player.waitForExit(timeout: .seconds(30))
        XCTAssertEqual(status, 0, player.stderr)

        let expected = samples.flatMap { sample -> [UInt8] in
            let bits = UInt16(bitPattern: sample)
            return [UInt8(bits & 0xFF), UInt8(bits >> 8)]
        }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: capture)))
        XCTAssertEqual(bytes.count, expected.count, "pauses after \(pauses) ms: frames lost or repeated")
        if let first = bytes.indices.first(where: { $0 < expected.count && bytes[$0] != expected[$0] }) {
            XCTFail("the capture departs from the decoded samples at frame \(first / 4) (pauses after \(pauses) ms)")
        }
    }
}
