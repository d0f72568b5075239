import DBus
import RemoteControl
import TestSupport
import XCTest

/// What desktop media keys send (field notes, "MPRIS consumers"), through `dbus-send` and `gdbus`.
final class DesktopConsumerTests: EndpointTestCase {
    private func startedPlayer(commands: [RemoteCommand] = RemoteCommand.allCases) async throws -> TestPlayer {
        let player = try makePlayer(commands: commands)
        player.start()
        let acquired = try await waitForName(present: true)
        XCTAssertTrue(acquired)
        return player
    }

    /// GNOME: the Play key sends PlayPause; Rewind/Forward send Seek(-10 s)/Seek(+45 s).
    func testGnomePlayPauseAndSeek() async throws {
        let player = try await startedPlayer()
        var result = try await dbusSend("PlayPause")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(player.state, .paused)
        result = try await dbusSend("PlayPause")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(player.state, .playing)

        try await playerctl("pause")
        try await playerctl("position", "30")
        player.clearCalls()
        result = try await dbusSend("Seek", "int64:-10000000")
        XCTAssertEqual(result.status, 0, result.stderr)
        result = try await dbusSend("Seek", "int64:45000000")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(player.calls, [.seek(offset: .seconds(-10)), .seek(offset: .seconds(45))])
        try await expectPlayerctl("position", prints: "65.000000")

        // Rewinding past the start lands on the start.
        result = try await dbusSend("Seek", "int64:-100000000")
        XCTAssertEqual(player.calls.last, .seek(offset: .seconds(-65)))
        // Forward past the end of the 180 s track acts like Next (spec).
        result = try await dbusSend("Seek", "int64:500000000")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(player.calls.last, .nextTrack)
        try await expectPlayerctl("metadata", "xesam:title", prints: "Second Song")
    }

    /// Without a toggle handler PlayPause still toggles through Play/Pause — never anything else.
    func testPlayPauseWithoutAToggleHandler() async throws {
        let player = try await startedPlayer(commands: [.play, .pause, .stop])
        _ = try await dbusSend("PlayPause")
        XCTAssertEqual(player.calls, [.pause])
        _ = try await dbusSend("PlayPause")
        XCTAssertEqual(player.calls, [.pause, .play])
    }

    /// KDE: Pause if PlaybackStatus is Playing (needs CanPause) else Play (needs CanPlay).
    func testKdePauseIfPlaying() async throws {
        let player = try await startedPlayer()
        for expected in [PlaybackState.paused, .playing, .paused] {
            let status = try await tool("gdbus", ["call", "--session", "--dest", Self.name, "--object-path",
                                                  "/org/mpris/MediaPlayer2", "--method",
                                                  "org.freedesktop.DBus.Properties.Get",
                                                  "org.mpris.MediaPlayer2.Player", "PlaybackStatus"])
            let canPause = try await tool("gdbus", ["call", "--session", "--dest", Self.name, "--object-path",
                                                    "/org/mpris/MediaPlayer2", "--method",
                                                    "org.freedesktop.DBus.Properties.Get",
                                                    "org.mpris.MediaPlayer2.Player", "CanPause"])
            XCTAssertEqual(canPause.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "(<true>,)")
            let method = status.stdout.contains("'Playing'") ? "Pause" : "Play"
            let result = try await tool("gdbus", ["call", "--session", "--dest", Self.name, "--object-path",
                                                  "/org/mpris/MediaPlayer2", "--method",
                                                  "org.mpris.MediaPlayer2.Player.\(method)"])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(player.state, expected)
        }
        XCTAssertEqual(player.calls, [.pause, .play, .pause])
    }
}
