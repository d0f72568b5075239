import DBus
import RemoteControl
import TestSupport
import XCTest

/// G-RC-FAITHFUL: a disabled command or one without a handler has no effect (and its Can* is
/// false); SetPosition checks track id and range; errors for what the spec lets refuse.
final class FaithfulMappingTests: EndpointTestCase {
    private func startedPlayer(commands: [RemoteCommand] = RemoteCommand.allCases) async throws -> TestPlayer {
        let player = try makePlayer(commands: commands)
        player.start()
        let acquired = try await waitForName(present: true)
        XCTAssertTrue(acquired)
        return player
    }

    private func property(_ name: String, interface: String = "org.mpris.MediaPlayer2.Player") async throws -> String {
        let result = try await tool("busctl", ["--user", "get-property", Self.name, "/org/mpris/MediaPlayer2",
                                               interface, name])
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testDisabledCommandsChangeNothing() async throws {
        let player = try await startedPlayer()
        for command in [RemoteCommand.pause, .togglePlayPause, .nextTrack, .previousTrack, .seek,
                        .changePlaybackPosition, .changeVolume, .changeRepeatMode, .stop] {
            player.center.setEnabled(command, false)
        }
        let flags = try await (property("CanPause"), property("CanGoNext"), property("CanGoPrevious"),
                               property("CanSeek"), property("CanPlay"), property("CanControl"))
        XCTAssertEqual([flags.0, flags.1, flags.2, flags.3, flags.4, flags.5],
                       ["b false", "b false", "b false", "b false", "b true", "b true"])
        let before = player.endpoint.nowPlaying
        for member in ["Pause", "PlayPause", "Next", "Previous", "Stop"] {
            let result = try await dbusSend(member)
            XCTAssertEqual(result.status, 0, "\(member): \(result.stderr)")
        }
        _ = try await dbusSend("Seek", "int64:10000000")
        _ = try await dbusSend("SetPosition", "objpath:/org/mprisd/track/1", "int64:10000000")
        let volume = try await tool("busctl", ["--user", "set-property", Self.name, "/org/mpris/MediaPlayer2",
                                               "org.mpris.MediaPlayer2.Player", "Volume", "d", "0.1"])
        XCTAssertNotEqual(volume.status, 0, "a write that cannot act is refused")
        XCTAssertTrue(volume.stderr.contains("not supported") || volume.stderr.contains("NotSupported"), volume.stderr)
        XCTAssertEqual(player.calls, [])
        XCTAssertEqual(player.endpoint.nowPlaying, before)
        try await expectPlayerctl("status", prints: "Playing")
        // playerctl itself skips a player whose CanPause is false.
        _ = try await playerctl("pause", allowFailure: true)
        XCTAssertEqual(player.calls, [])
        XCTAssertEqual(player.state, .playing)

        // Enabled again: it acts.
        player.center.setEnabled(.pause, true)
        try await playerctl("pause")
        XCTAssertEqual(player.calls, [.pause])
    }

    func testCommandsWithoutHandlerAreUnavailable() async throws {
        let player = try await startedPlayer(commands: [.play, .pause])
        let next = try await property("CanGoNext")
        XCTAssertEqual(next, "b false")
        let canRaise = try await property("CanRaise", interface: "org.mpris.MediaPlayer2")
        XCTAssertEqual(canRaise, "b false")
        _ = try await dbusSend("Next")
        let raise = try await dbusSend("Raise", interface: "org.mpris.MediaPlayer2")
        XCTAssertNotEqual(raise.status, 0)
        XCTAssertTrue(raise.stderr.contains("org.freedesktop.DBus.Error.NotSupported"), raise.stderr)
        XCTAssertEqual(player.calls, [])
        XCTAssertEqual(player.endpoint.nowPlaying.item?.id, "one")
    }

    func testRaiseQuitAndOpenUri() async throws {
        let player = try await startedPlayer()
        var result = try await dbusSend("Raise", interface: "org.mpris.MediaPlayer2")
        XCTAssertEqual(result.status, 0, result.stderr)
        result = try await dbusSend("OpenUri", "string:file:///music/x.flac")
        XCTAssertEqual(result.status, 0, result.stderr)
        result = try await dbusSend("OpenUri", "string:http://example.com/x.flac")
        XCTAssertTrue(result.stderr.contains("NotSupported"), result.stderr)
        result = try await dbusSend("Quit", interface: "org.mpris.MediaPlayer2")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(player.calls, [.raise, .openURI("file:///music/x.flac"), .quit])
    }

    func testSetPositionChecksTrackIdAndRange() async throws {
        let player = try await startedPlayer()
        try await playerctl("next")  // now /org/mprisd/track/2, 200 s long
        player.clearCalls()
        let stale = try await dbusSend("SetPosition", "objpath:/org/mprisd/track/1", "int64:5000000")
        XCTAssertEqual(stale.status, 0, stale.stderr)
        for position in ["int64:-1", "int64:200000001"] {
            _ = try await dbusSend("SetPosition", "objpath:/org/mprisd/track/2", position)
        }
        XCTAssertEqual(player.calls, [], "stale track id and out-of-range positions are ignored")
        _ = try await dbusSend("SetPosition", "objpath:/org/mprisd/track/2", "int64:200000000")
        XCTAssertEqual(player.calls, [.changePlaybackPosition(itemID: "two", position: .seconds(200))])
    }

    func testMalformedCallsGetErrors() async throws {
        let player = try await startedPlayer()
        var result = try await dbusSend("Seek", "string:ten")
        XCTAssertTrue(result.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs"), result.stderr)
        result = try await dbusSend("SetPosition", "string:/org/mprisd/track/1", "int64:1")
        XCTAssertTrue(result.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs"), result.stderr)
        result = try await dbusSend("Dance")
        XCTAssertTrue(result.stderr.contains("org.freedesktop.DBus.Error.UnknownMethod"), result.stderr)
        result = try await tool("busctl", ["--user", "set-property", Self.name, "/org/mpris/MediaPlayer2",
                                           "org.mpris.MediaPlayer2.Player", "LoopStatus", "s", "Forever"])
        XCTAssertTrue(result.stderr.contains("None, Track or Playlist"), result.stderr)
        result = try await tool("busctl", ["--user", "set-property", Self.name, "/org/mpris/MediaPlayer2",
                                           "org.mpris.MediaPlayer2.Player", "Position", "x", "5"])
        XCTAssertNotEqual(result.status, 0)
        result = try await tool("busctl", ["--user", "set-property", Self.name, "/org/mpris/MediaPlayer2",
                                           "org.mpris.MediaPlayer2.Player", "Volume", "s", "loud"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertEqual(player.calls, [])
        try await expectPlayerctl("status", prints: "Playing")
    }

    /// Rate: within MinimumRate…MaximumRate; 0 acts as Pause (spec).
    func testRateWithinTheAdvertisedRange() async throws {
        let player = try await startedPlayer()
        player.endpoint.update { info in
            info.minimumRate = 0.5
            info.maximumRate = 2
        }
        let set = { (value: String) async throws -> ProgramResult in
            try await self.tool("busctl", ["--user", "set-property", Self.name, "/org/mpris/MediaPlayer2",
                                           "org.mpris.MediaPlayer2.Player", "Rate", "d", value])
        }
        var result = try await set("1.5")
        XCTAssertEqual(result.status, 0, result.stderr)
        let rate = try await property("Rate")
        XCTAssertEqual(rate, "d 1.5")
        result = try await set("3")
        XCTAssertTrue(result.stderr.contains("outside"), result.stderr)
        result = try await set("0")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(player.calls, [.changePlaybackRate(1.5), .pause])
        XCTAssertEqual(player.state, .paused)
    }
}
