import DBus
import Foundation
import TestSupport
import XCTest

/// `mprisd play` end to end: the MPRIS name lives exactly in the audio context, playerctl drives
/// every control, bad files are skipped, signals stop it cleanly.
final class PlayCommandTests: PlayerTestCase {
    func testNameExistsOnlyFromPlayToStop() async throws {
        let watcher = try connect()
        let noName = try await hasName("life", on: watcher)
        XCTAssertFalse(noName, "absent before the first play")
        let player = try play(["--device", "null", "--name", "life", try track("a.wav", seconds: 5)])
        try await waitUntil("the name appears") { try await self.hasName("life", on: watcher) }
        let playing = try await playerctl("-p", "life", "status")
        XCTAssertEqual(playing, "Playing")
        try await playerctl("-p", "life", "pause")
        try await waitUntil("Paused") { try await self.playerctl("-p", "life", "status") == "Paused" }
        let whilePaused = try await hasName("life", on: watcher)
        XCTAssertTrue(whilePaused, "present while paused")
        try await playerctl("-p", "life", "stop")
        let status = await player.waitForExit()
        XCTAssertEqual(status, 0, player.stderr)
        let afterStop = try await hasName("life", on: watcher)
        XCTAssertFalse(afterStop, "absent after stop")
    }

    func testEndOfQueueReleasesTheNameAndExitsZero() async throws {
        let watcher = try connect()
        let player = try play(["--device", "null", "--name", "short", try track("a.wav", seconds: 0.6),
                               try track("b.wav", seconds: 0.6)])
        try await waitUntil("the name appears") { try await self.hasName("short", on: watcher) }
        let status = await player.waitForExit()
        XCTAssertEqual(status, 0, player.stderr)
        let after = try await hasName("short", on: watcher)
        XCTAssertFalse(after, "absent after the end of the queue")
        XCTAssertTrue(player.stderr.contains("▶ a  0:00"), player.stderr)
        XCTAssertTrue(player.stderr.contains("▶ b  0:00"), "each track's position starts at 0: \(player.stderr)")
    }

    func testPlayerctlDrivesEveryControl() async throws {
        let first = try track("first.wav", seconds: 8)
        _ = try track("second.wav", seconds: 8)
        let player = try play(["--device", "null", "--name", "ctl", first, path("second.wav")])
        try await waitUntil("playing") { try await self.playerctl("-p", "ctl", "status") == "Playing" }

        let format = try await playerctl("-p", "ctl", "metadata", "--format",
                                         "{{title}}|{{mpris:length}}|{{mpris:trackid}}|{{xesam:url}}")
        let fields = format.split(separator: "|").map(String.init)
        XCTAssertEqual(fields.count, 4, format)
        XCTAssertEqual(fields.first, "first")
        XCTAssertEqual(fields.dropFirst().first, "8000000", "mpris:length in µs")
        // playerctl prints an object path quoted, as GVariant text.
        XCTAssertTrue(fields.dropFirst(2).first?.hasPrefix("'/org/mprisd/track/") == true, format)
        XCTAssertEqual(fields.last, "file://" + first)

        try await playerctl("-p", "ctl", "play-pause")
        try await waitUntil("toggled to Paused") { try await self.playerctl("-p", "ctl", "status") == "Paused" }
        try await playerctl("-p", "ctl", "play-pause")
        try await waitUntil("toggled to Playing") { try await self.playerctl("-p", "ctl", "status") == "Playing" }

        try await playerctl("-p", "ctl", "position", "4")
        // The audio thread applies it between two chunks; under load that can be after the next read.
        try await waitUntil("SetPosition moved the player", timeout: .seconds(2)) {
            abs((Double(try await self.playerctl("-p", "ctl", "position")) ?? -1) - 4) < 0.5
        }

        try await playerctl("-p", "ctl", "volume", "0.25")
        try await waitUntil("volume 0.25") { Double(try await self.playerctl("-p", "ctl", "volume")) == 0.25 }
        try await playerctl("-p", "ctl", "loop", "Track")
        try await waitUntil("loop Track") { try await self.playerctl("-p", "ctl", "loop") == "Track" }
        try await playerctl("-p", "ctl", "shuffle", "On")
        try await waitUntil("shuffle On") { try await self.playerctl("-p", "ctl", "shuffle") == "On" }
        try await playerctl("-p", "ctl", "loop", "None")
        try await playerctl("-p", "ctl", "shuffle", "Off")

        try await playerctl("-p", "ctl", "next")
        try await waitUntil("second track") { try await self.playerctl("-p", "ctl", "metadata", "title") == "second" }
        try await playerctl("-p", "ctl", "previous")
        try await waitUntil("back to the first") { try await self.playerctl("-p", "ctl", "metadata", "title") == "first" }

        player.signal(SIGTERM)
        let status = await player.waitForExit()
        XCTAssertEqual(status, 0, player.stderr)
    }

    func testSigtermAnnouncesStoppedAndReleasesTheName() async throws {
        let watcher = try connect()
        let (changes, subscription) = try await watcher.signals(MatchRule(interface: "org.freedesktop.DBus.Properties",
                                                                          member: "PropertiesChanged"))
        defer { subscription.cancel() }
        let player = try play(["--device", "null", "--name", "term", try track("a.wav", seconds: 5)])
        try await waitUntil("the name appears") { try await self.hasName("term", on: watcher) }
        player.signal(SIGTERM)
        let status = await player.waitForExit()
        XCTAssertEqual(status, 0, player.stderr)
        let gone = try await hasName("term", on: watcher)
        XCTAssertFalse(gone)
        var sawStopped = false
        var iterator = changes.makeAsyncIterator()
        while !sawStopped, let change = await iterator.next() {
            guard change.body.count == 3, case .dictionary(_, _, let entries) = change.body[1] else { continue }
            sawStopped = entries.contains { $0.key == .string("PlaybackStatus") && $0.value == .variant(.string("Stopped")) }
        }
        XCTAssertTrue(sawStopped, "Stopped was announced before the name went")
    }

    func testBadFilesAreSkippedWithAMessageAndTheQueueGoesOn() async throws {
        let garbage = path("garbage.wav")
        try Data("RIFF not really".utf8).write(to: URL(fileURLWithPath: garbage))
        let empty = path("empty.flac")
        XCTAssertTrue(FileManager.default.createFile(atPath: empty, contents: Data()))
        let truncated = path("truncated.wav")
        let whole = try Data(contentsOf: URL(fileURLWithPath: try track("whole.wav", seconds: 0.5)))
        try whole.prefix(30).write(to: URL(fileURLWithPath: truncated))
        let noAudio = path("no-audio")
        try FileManager.default.createDirectory(atPath: noAudio, withIntermediateDirectories: true)
        try Data("hello".utf8).write(to: URL(fileURLWithPath: noAudio + "/notes.txt"))
        let good = try track("good.wav", seconds: 0.5)
        let player = try play(["--device", "null", "--name", "bad", garbage, empty, path("missing.wav"),
                               truncated, noAudio, good])
        let status = await player.waitForExit()
        XCTAssertEqual(status, 0, "the good file played: \(player.stderr)")
        for name in ["garbage.wav", "empty.flac", "missing.wav", "truncated.wav"] {
            XCTAssertTrue(player.stderr.contains(name), "a message names \(name): \(player.stderr)")
        }
        XCTAssertTrue(player.stderr.contains("good"), player.stderr)
    }

    func testNothingPlayableExitsNonZeroWithAReason() async throws {
        let garbage = path("garbage.wav")
        try Data(repeating: 7, count: 4096).write(to: URL(fileURLWithPath: garbage))
        let player = try play(["--device", "null", garbage, path("missing.ogg")])
        let status = await player.waitForExit()
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(player.stderr.contains("nothing"), player.stderr)
    }

    func testAPausedPlayerDoesNotWakeUp() async throws {
        let player = try play(["--device", "null", "--name", "idle", try track("a.wav", seconds: 10)])
        try await waitUntil("playing") { try await self.playerctl("-p", "idle", "status") == "Playing" }
        try await playerctl("-p", "idle", "pause")
        try await waitUntil("Paused") { try await self.playerctl("-p", "idle", "status") == "Paused" }
        // Time is the subject here: a paused player's wake-ups counted over one second.
        try await Task.sleep(for: .milliseconds(300))
        let before = player.contextSwitches()
        try await Task.sleep(for: .seconds(1))
        let after = player.contextSwitches()
        XCTAssertEqual(after - before, 0, "a paused player wakes up zero times")
        player.signal(SIGTERM)
        _ = await player.waitForExit()
    }
}

extension PlayCommandTests {
    /// `CanGoNext` of the player, read as a desktop widget reads it.
    private func canGoNext(_ name: String, on connection: Connection) async throws -> Bool? {
        let reply = try await connection.call(destination: "org.mpris.MediaPlayer2.\(name)",
                                              path: try ObjectPath("/org/mpris/MediaPlayer2"),
                                              interface: "org.freedesktop.DBus.Properties", member: "Get",
                                              [.string("org.mpris.MediaPlayer2.Player"), .string("CanGoNext")])
        guard case .variant(.boolean(let value))? = reply.first else { return nil }
        return value
    }

    func testCanGoNextIsFalseOnTheLastTrackUnlessTheQueueLoops() async throws {
        let watcher = try connect()
        let first = try track("one.wav", seconds: 1)
        let last = try track("two.wav", seconds: 30)
        let player = try play(["--device", "null", "--name", "last", first, last])
        try await waitUntil("playing the first track") { try await self.playerctl("-p", "last", "status") == "Playing" }
        let onFirst = try await canGoNext("last", on: watcher)
        XCTAssertEqual(onFirst, true)
        try await waitUntil("on the last track, Next greys out", timeout: .seconds(5)) {
            try await self.canGoNext("last", on: watcher) == false
        }
        try await playerctl("-p", "last", "loop", "Playlist")
        try await waitUntil("a looping queue always has a next track") {
            try await self.canGoNext("last", on: watcher) == true
        }
        player.signal(SIGTERM)
        _ = await player.waitForExit()
    }
}
