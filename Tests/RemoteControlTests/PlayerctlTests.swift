import DBus
import RemoteControl
import TestSupport
import XCTest

/// The real `playerctl` against the endpoint: every command it has for one player.
final class PlayerctlTests: EndpointTestCase {
    private func startedPlayer() async throws -> TestPlayer {
        let player = try makePlayer()
        player.start()
        let acquired = try await waitForName(present: true)
        XCTAssertTrue(acquired)
        return player
    }

    func testMetadataWithEveryField() async throws {
        let player = try await startedPlayer()
        let format = [
            "{{title}}", "{{artist}}", "{{album}}", "{{xesam:albumArtist}}", "{{xesam:trackNumber}}",
            "{{mpris:length}}", "{{duration(mpris:length)}}", "{{mpris:trackid}}", "{{xesam:url}}",
            "{{mpris:artUrl}}", "{{status}}", "{{playerName}}", "{{volume}}", "{{loop}}", "{{shuffle}}",
        ].joined(separator: "|")
        try await expectPlayerctl("metadata", "--format", format, prints: [
            "First Song", "Ann Artist, Bob Band", "The Album", "Various", "1",
            "180000000", "3:00", "'/org/mprisd/track/1'", "file:///music/one.flac",
            "file:///tmp/art1.png", "Playing", "rctest", "1.0", "None", "false",
        ].joined(separator: "|"))
        // Position is extrapolated while playing: a fresh start reads a few ms in, never minutes.
        let position = try await playerctl("metadata", "--format", "{{position}}")
        let microseconds = try XCTUnwrap(Int64(position))
        XCTAssertGreaterThanOrEqual(microseconds, 0)
        XCTAssertLessThan(microseconds, 5_000_000)
        // The plain listing names the keys; single keys print alone.
        let listing = try await playerctl("metadata")
        // An object path prints quoted (GVariant text), a string would not: `o`, as the spec says.
        XCTAssertNotNil(listing.range(of: #"rctest mpris:trackid\s+'/org/mprisd/track/1'"#, options: .regularExpression),
                        listing)
        XCTAssertNotNil(listing.range(of: #"rctest xesam:artist\s+Ann Artist\nrctest xesam:artist\s+Bob Band"#,
                                      options: .regularExpression), listing)
        try await expectPlayerctl("metadata", "xesam:title", prints: "First Song")
        try await expectPlayerctl("metadata", "mpris:length", prints: "180000000")
        XCTAssertEqual(player.calls, [], "reading commands nothing")
    }

    func testTransportCommandsAreExact() async throws {
        let player = try await startedPlayer()
        try await playerctl("pause")
        try await playerctl("pause")  // a second Pause is not a toggle
        XCTAssertEqual(player.state, .paused)
        try await expectPlayerctl("status", prints: "Paused")
        try await playerctl("play")
        try await playerctl("play")
        XCTAssertEqual(player.state, .playing)
        try await playerctl("play-pause")
        XCTAssertEqual(player.state, .paused)
        try await playerctl("play-pause")
        XCTAssertEqual(player.state, .playing)
        try await playerctl("next")
        try await expectPlayerctl("metadata", "--format", "{{title}} {{mpris:trackid}}",
                                  prints: "Second Song '/org/mprisd/track/2'")
        try await playerctl("previous")
        // Back to the first item: a new play of it is a new track id (unique per track change).
        try await expectPlayerctl("metadata", "--format", "{{title}} {{mpris:trackid}}",
                                  prints: "First Song '/org/mprisd/track/3'")
        XCTAssertEqual(player.calls, [.pause, .pause, .play, .play, .togglePlayPause, .togglePlayPause,
                                      .nextTrack, .previousTrack])
        try await playerctl("stop")
        XCTAssertEqual(player.calls.last, .stop)
        let released = try await waitForName(present: false)
        XCTAssertTrue(released)
    }

    func testPositionGetAndSet() async throws {
        let player = try await startedPlayer()
        try await playerctl("pause")
        try await playerctl("position", "42")
        XCTAssertEqual(player.calls.last, .changePlaybackPosition(itemID: "one", position: .seconds(42)))
        try await expectPlayerctl("position", prints: "42.000000")
        try await playerctl("position", "10+")
        XCTAssertEqual(player.calls.last, .seek(offset: .seconds(10)))
        try await expectPlayerctl("position", prints: "52.000000")
        try await playerctl("position", "60-")  // before the start: clamped to it
        XCTAssertEqual(player.calls.last, .seek(offset: .seconds(-52)))
        try await expectPlayerctl("position", prints: "0.000000")
        // While playing the position advances from the recorded one.
        try await playerctl("position", "100")
        try await playerctl("play")
        var seconds = 0.0
        let advanced = try await eventually {
            seconds = Double(try await playerctl("position")) ?? 0
            return seconds > 100.2
        }
        XCTAssertTrue(advanced, "the position stayed at \(seconds)")
        XCTAssertLessThan(seconds, 103, "the position runs at the playback rate, not faster")
    }

    func testVolumeLoopAndShuffle() async throws {
        let player = try await startedPlayer()
        try await expectPlayerctl("volume", prints: "1.000000")
        try await playerctl("volume", "0.25")
        XCTAssertEqual(player.calls.last, .changeVolume(0.25))
        try await expectPlayerctl("volume", prints: "0.250000")
        try await expectPlayerctl("loop", prints: "None")
        try await playerctl("loop", "Track")
        try await expectPlayerctl("loop", prints: "Track")
        try await playerctl("loop", "Playlist")
        try await expectPlayerctl("loop", prints: "Playlist")
        try await expectPlayerctl("shuffle", prints: "Off")
        try await playerctl("shuffle", "On")
        try await expectPlayerctl("shuffle", prints: "On")
        XCTAssertEqual(player.calls, [.changeVolume(0.25), .changeRepeatMode(.track), .changeRepeatMode(.playlist),
                                      .changeShuffleMode(true)])
        XCTAssertEqual(player.endpoint.nowPlaying.repeatMode, .playlist)
        XCTAssertTrue(player.endpoint.nowPlaying.shuffle)
    }
}
