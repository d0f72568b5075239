import DBus
import Foundation
import TestSupport
import XCTest

/// One daemon per bus, and clients that outlive it: a restarted daemon gets `mprisd play` back as
/// a session of its own (not a foreign player), and a second daemon refuses to start.
final class DaemonRestartTests: DaemonTestCase {
    func testARunningPlayerRegistersAgainWithANewDaemonAndObeysIt() async throws {
        let first = try await startDaemon()
        let player = try await startPlay(name: "survivor")
        let before = try await busStatus()
        let owner = try XCTUnwrap(before.session(named: "survivor")?.owner)
        XCTAssertNil(before.player("org.mpris.MediaPlayer2.survivor"), "\(before)")

        first.signal(SIGTERM)
        let stopped = await first.waitForExit()
        XCTAssertEqual(stopped, 0, first.stderr)
        try await waitUntil("the name is free") { try await self.policyOwner() == nil }
        // Only the policy went away, not the sound: the player plays on, with its MPRIS name.
        let playsOn = try await holds(for: .milliseconds(600)) { try await self.playerctl("-p", "survivor", "status") == "Playing" }
        XCTAssertTrue(playsOn, "the player plays on while no daemon runs: \(player.stderr)")
        XCTAssertTrue(player.stderr.contains("the policy daemon went away; playing on"), player.stderr)
        XCTAssertTrue(player.isRunning, player.stderr)

        try await startDaemon()
        try await waitForStatus("the player registered again") { $0.session(named: "survivor")?.owner == owner }
        let again = try await cliStatus()
        XCTAssertEqual(again.sessions.filter { $0.name == "survivor" }.count, 1, "\(again)")
        XCTAssertNil(again.player("org.mpris.MediaPlayer2.survivor"),
                     "the player is the daemon's own client, not a foreign player: \(again)\n\(daemon?.stderr ?? "")")
        XCTAssertFalse(daemon?.stderr.contains("tracking org.mpris.MediaPlayer2.survivor") ?? true,
                       daemon?.stderr ?? "")

        // Registered and active again by itself, still playing; from now on it obeys the new daemon.
        try await waitForStatus("its session active in the new daemon") { $0.session(named: "survivor")?.active == true }
        let playing = try await playerctl("-p", "survivor", "status")
        XCTAssertEqual(playing, "Playing", player.stderr)
        let call = try run(["--category", "playAndRecord", "--mode", "voiceChat", "--notify-others", "--", "sleep", "1.5"])
        try await waitUntil("the call pauses the player", timeout: .seconds(2)) {
            try await self.playerctl("-p", "survivor", "status") == "Paused"
        }
        XCTAssertTrue(call.isRunning)
        let status = await call.waitForExit()
        XCTAssertEqual(status, 0, call.stderr)
        try await waitUntil("notify-others resumes the player", timeout: .seconds(2)) {
            try await self.playerctl("-p", "survivor", "status") == "Playing"
        }
    }

    func testASecondDaemonOnTheSameBusExitsNamingTheBusName() async throws {
        let first = try await startDaemon()
        let owner = try await policyOwner()
        let second = try await mprisd([], timeout: .seconds(10))
        XCTAssertNotEqual(second.status, 0, second.stderr)
        XCTAssertEqual(second.status, 69, "EX_UNAVAILABLE: \(second.stderr)")
        XCTAssertTrue(second.stderr.contains("org.mprisd.AudioPolicy"), second.stderr)
        XCTAssertTrue(second.stderr.contains(owner ?? "?"), "names the owner: \(second.stderr)")

        XCTAssertTrue(first.isRunning, first.stderr)
        let stillOwner = try await policyOwner()
        XCTAssertEqual(stillOwner, owner)
        let status = try await cliStatus()
        XCTAssertEqual(status.version, 1)
    }
}
