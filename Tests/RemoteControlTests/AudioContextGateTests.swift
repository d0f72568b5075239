import DBus
import RemoteControl
import TestSupport
import XCTest

/// G-RC-CONTEXT: the name exists exactly while the app is in an audio context.
final class AudioContextGateTests: EndpointTestCase {
    func testNameLivesFromFirstPlayToStop() async throws {
        let player = try makePlayer()
        // Exported, but not in an audio context: no name, playerctl sees no player.
        var names = try await busNamesAfterRequests(of: player)
        XCTAssertFalse(names.contains(Self.name))
        try await expectPlayerctl("-l", player: nil, prints: "")

        player.start()
        let acquired = try await waitForName(present: true)
        XCTAssertTrue(acquired)
        await expectBusName(player, Self.name)
        try await expectPlayerctl("-l", player: nil, prints: "rctest")
        try await expectPlayerctl("status", prints: "Playing")

        try await playerctl("pause")
        XCTAssertEqual(player.state, .paused)
        try await expectPlayerctl("status", prints: "Paused")
        names = try await busNames()
        XCTAssertTrue(names.contains(Self.name), "paused is still an audio context")

        try await playerctl("stop")
        XCTAssertEqual(player.state, .stopped)
        let released = try await waitForName(present: false)
        XCTAssertTrue(released)
        await expectBusName(player, nil)
        try await expectPlayerctl("-l", player: nil, prints: "")

        // The user starts again from the app: the name comes back.
        player.start()
        let reacquired = try await waitForName(present: true)
        XCTAssertTrue(reacquired)
        try await expectPlayerctl("status", prints: "Playing")
    }
}

extension AudioContextGateTests {
    func testCloseAndDeinitReleaseTheName() async throws {
        var player: TestPlayer? = try makePlayer()
        player?.start()
        var acquired = try await waitForName(present: true)
        XCTAssertTrue(acquired)
        player?.endpoint.close()
        let released = try await waitForName(present: false)
        XCTAssertTrue(released)
        // Closed for good: the object is withdrawn and updates no longer take the name.
        let owner = try XCTUnwrap(player?.endpoint.connection.uniqueName)
        let introspect = try await tool("gdbus", ["call", "--session", "--dest", owner, "--object-path",
                                                  "/org/mpris/MediaPlayer2", "--method",
                                                  "org.freedesktop.DBus.Properties.GetAll", "org.mpris.MediaPlayer2.Player"])
        XCTAssertTrue(introspect.stderr.contains("UnknownObject"), introspect.stderr)
        player?.start()
        let names = try await busNamesAfterRequests(of: try XCTUnwrap(player))
        XCTAssertFalse(names.contains(Self.name))

        // A player dropped while playing gives its name back too.
        player = try makePlayer()
        player?.start()
        acquired = try await waitForName(present: true)
        XCTAssertTrue(acquired)
        player = nil
        let gone = try await waitForName(present: false)
        XCTAssertTrue(gone)
    }

    func testItemClearedOrNoCommandsLeavesTheContext() async throws {
        let player = try makePlayer()
        player.start()
        var acquired = try await waitForName(present: true)
        XCTAssertTrue(acquired)
        player.endpoint.update { $0.item = nil }  // end of the queue
        var released = try await waitForName(present: false)
        XCTAssertTrue(released)
        player.start()
        acquired = try await waitForName(present: true)
        XCTAssertTrue(acquired)
        for command in RemoteCommand.allCases { player.center.setEnabled(command, false) }
        released = try await waitForName(present: false)
        XCTAssertTrue(released, "no command to offer: no remote control")
        player.center.setEnabled(.play, true)
        acquired = try await waitForName(present: true)
        XCTAssertTrue(acquired)
    }
}
