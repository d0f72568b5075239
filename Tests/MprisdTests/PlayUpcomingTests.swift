import Foundation
import TestSupport
import XCTest

/// With seconds queued, the decoder starts the next track while the listener still hears the end
/// of this one. Next then means the track after the one heard — not the one after the decoder's
/// (issue 18).
final class PlayUpcomingTests: PlayerTestCase {
    func testNextDuringTheLastSecondsOfATrackPlaysTheNextTrackNotTheOneAfter() async throws {
        let first = try track("a.wav", seconds: 1.5)
        let second = try track("b.wav", seconds: 6)
        let third = try track("c.wav", seconds: 6)
        let player = try play(["--device", "null", "--name", "upcoming", first, second, third])
        try await waitUntil("playing a") { try await self.playerctl("-p", "upcoming", "metadata", "title") == "a" }
        // The silent output holds 2 s: b is decoded behind a's tail from the start.
        try await playerctl("-p", "upcoming", "next")
        try await waitUntil("b plays") { try await self.playerctl("-p", "upcoming", "metadata", "title") == "b" }
        try await Task.sleep(for: .seconds(2))  // time is the subject here: past a's tail, the decoder's queue would be on c
        let title = try await playerctl("-p", "upcoming", "metadata", "title")
        XCTAssertEqual(title, "b", "Next skipped the track after the one heard: \(player.stderr)")
        let position = Double(try await playerctl("-p", "upcoming", "position")) ?? -1
        XCTAssertLessThan(position, 4, "b plays from its start")
        player.signal(SIGTERM)
        _ = await player.waitForExit()
    }

    func testPreviousDuringTheLastSecondsOfATrackRestartsTheTrackHeard() async throws {
        let first = try track("a.wav", seconds: 5)
        let second = try track("b.wav", seconds: 6)
        let player = try play(["--device", "null", "--name", "heard", first, second])
        try await waitUntil("playing a") { try await self.playerctl("-p", "heard", "metadata", "title") == "a" }
        // The silent output holds 2 s and refills at 1 s left: from 3.5 s into a, b is decoded.
        try await waitUntil("a's last second", timeout: .seconds(10)) {
            (Double(try await self.playerctl("-p", "heard", "position")) ?? 0) > 4.1
        }
        try await playerctl("-p", "heard", "previous")  // past the restart threshold: a again
        try await waitUntil("a restarts") { (Double(try await self.playerctl("-p", "heard", "position")) ?? 9) < 2 }
        let title = try await playerctl("-p", "heard", "metadata", "title")
        XCTAssertEqual(title, "a", "Previous restarts the track heard, not the one decoded: \(player.stderr)")
        player.signal(SIGTERM)
        _ = await player.waitForExit()
    }
}
