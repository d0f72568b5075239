import DBus
import RemoteControl
import TestSupport
import XCTest

/// Design "MPRIS endpoint": if the name is taken, `org.mpris.MediaPlayer2.<app>.instance<pid>`.
final class NameClashTests: EndpointTestCase {
    static let instance = "org.mpris.MediaPlayer2.rctest.instance4242"

    func testClashFallsBackToTheInstanceName() async throws {
        let squatter = try connect()
        let reply = try await squatter.requestName(Self.name, flags: .doNotQueue)
        XCTAssertEqual(reply, .primaryOwner)

        let player = try makePlayer()
        player.start()
        let acquired = try await waitForName(Self.instance, present: true)
        XCTAssertTrue(acquired)
        await expectBusName(player, Self.instance)
        let squatterStillOwns = try await squatter.nameOwner(Self.name)
        XCTAssertEqual(squatterStillOwns, squatter.uniqueName, "never replaces the other owner")

        // playerctl's `-p rctest` matches the instance too; the full instance name works as well.
        let listed = try await playerctl("-l", player: nil)
        XCTAssertTrue(listed.split(separator: "\n").contains("rctest.instance4242"), listed)
        try await expectPlayerctl("status", player: "rctest.instance4242", prints: "Playing")
        try await playerctl("pause", player: "rctest.instance4242")
        XCTAssertEqual(player.calls, [.pause])
        let status = try await tool("playerctl", ["-p", "rctest", "status"])
        XCTAssertTrue(status.stdout.contains("Paused"), "\(status.stdout) \(status.stderr)")

        // Leaving releases the instance name; once the other owner is gone the next entry gets
        // the primary name again.
        player.endpoint.update { $0.playbackState = .stopped }
        let released = try await waitForName(Self.instance, present: false)
        XCTAssertTrue(released)
        _ = try await squatter.releaseName(Self.name)
        player.start()
        let primary = try await waitForName(Self.name, present: true)
        XCTAssertTrue(primary)
        await expectBusName(player, Self.name)
    }

    func testTwoPlayersOfTheSameAppBothGetAName() async throws {
        let first = try makePlayer()
        let second = try makePlayer()
        first.start()
        let firstUp = try await waitForName(Self.name, present: true)
        XCTAssertTrue(firstUp)
        second.start(at: 1, state: .paused)
        let secondUp = try await waitForName(Self.instance, present: true)
        XCTAssertTrue(secondUp)
        try await expectPlayerctl("-l", player: nil, prints: "rctest\nrctest.instance4242")
        try await expectPlayerctl("metadata", "xesam:title", player: "rctest.instance4242", prints: "Second Song")
        try await expectPlayerctl("status", player: "rctest.instance4242", prints: "Paused")
    }
}
