import Foundation
import TestSupport
import XCTest

/// A queue that changes sample rate between tracks: the device is reconfigured only once the
/// previous track has played out of its deep buffer, and the player stays awake meanwhile, so a
/// pause in those seconds acts at once (issue 18).
final class PlayFormatChangeTests: PlayerTestCase {
    func testAPauseWhileTheLastSecondsOfAnotherFormatPlayActsAtOnce() async throws {
        let first = try track("a.wav", seconds: 1.5)
        let second = path("b.wav")
        try WAVFile.writeCountingTone(seconds: 1, to: second, sampleRate: 48_000)
        let player = try play(["--device", "null", "--name", "rates", first, second])
        try await waitUntil("playing") { try await self.playerctl("-p", "rates", "status") == "Playing" }
        // The silent output holds 2 s: the first track (1.5 s) is decoded to its end at once, and
        // the second waits for its tail (in 44.1 kHz) to play out.
        try await Task.sleep(for: .milliseconds(300))  // time is the subject here: play into the first track
        let asked = ContinuousClock.now
        try await playerctl("-p", "rates", "pause")
        try await waitUntil("paused") { try await self.playerctl("-p", "rates", "status") == "Paused" }
        let took = ContinuousClock.now - asked
        // Waiting inside the device's reconfiguration took the rest of the tail (over a second).
        XCTAssertLessThan(took, .milliseconds(800), "the pause waited for the tail: \(took)")
        try await playerctl("-p", "rates", "play")
        let status = await player.waitForExit(timeout: .seconds(20))
        XCTAssertEqual(status, 0, player.stderr)
        XCTAssertTrue(player.stderr.contains("▶ b  0:00"), "the second format plays: \(player.stderr)")
    }
}
