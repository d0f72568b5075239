import AppClassification
import AudioPolicyClient
import AudioPolicyDaemon
import DBus
import Foundation
import MPRISDirectory
import PolicyTestSupport
import SessionCore
import TestSupport
import XCTest

/// A navigation prompt — a library client's session (playback + voicePrompt, duckOthers +
/// interruptSpokenAudioAndMixWithOthers) — against a real mpv with mpv-mpris: spoken audio
/// (marked by its track's genre or by a `player` rule) is paused for exactly as long as the
/// prompt plays and resumed after it; music is only ducked. Seen in mpv's own MPRIS state.
final class SpokenAudioPlayerTests: PolicyTestCase {
    private var daemon: Daemon!
    private var tracker: ForeignPlayerTracker!
    private var logs: EventRecord<String>!
    private var players: [MPVPlayer] = []

    override func setUpWithError() throws {
        try XCTSkipUnless(MPVPlayer.isAvailable, "mpv and mpv-mpris are not installed")
        try super.setUpWithError()
        let daemon = try startDaemon()
        self.daemon = daemon
        let logs = EventRecord<String>()
        self.logs = logs
        let service = daemon.service
        tracker = ForeignPlayerTracker(directory: PlayerDirectory(connection: daemon.connection), system: daemon.system,
                                       isOwnSession: { service.ownsSessions($0) },
                                       sessions: service.sessions,
                                       log: { logs.append($0) })
        service.follow(tracker)
    }

    override func tearDown() {
        tracker?.stop()
        tracker = nil
        for player in players { player.kill() }
        players.removeAll()
        daemon = nil
        super.tearDown()
    }

    // MARK: Helpers

    /// A looping tone whose `genre` tag is `genre` (none: nil), as mpv-mpris exports it in
    /// `xesam:genre`.
    private func tone(_ name: String, genre: String?) throws -> String {
        let path = bus.directory.appendingPathComponent(name).path
        var info: [(tag: String, value: String)] = [(tag: "INAM", value: name)]
        if let genre { info.append((tag: "IGNR", value: genre)) }
        try WAVFile.writeCountingTone(seconds: 1, to: path, info: info)
        return path
    }

    private func startTracker() async throws {
        let started = EventRecord<Result<Void, DBusError>>()
        tracker.start { started.append($0) }
        try await started.wait(for: "the tracker to start") { $0.first }.get()
    }

    /// Starts mpv playing `file` and waits until the tracker has it playing.
    private func startPlayer(_ file: String) async throws -> MPVPlayer {
        let player = try await MPVPlayer.start(bus: bus, file: file)
        players.append(player)
        let seen = await eventually(timeout: .seconds(10)) { self.tracked(player)?.status == "Playing" }
        XCTAssertTrue(seen, "the tracker never saw \(player.busName) playing: \(tracker.players), log \(logs.elements)")
        return player
    }

    private func tracked(_ player: MPVPlayer) -> PolicyStatus.Player? {
        tracker.players.first { $0.busName == player.busName }
    }

    /// The mode of the player's session in the engine.
    private func engineMode(of player: MPVPlayer) -> SessionMode? {
        guard let id = tracked(player)?.session else { return nil }
        return daemon.system.engine.session(SessionID(rawValue: id))?.configuration.mode
    }

    /// Waits until the player's session is in `mode` (engine and status agree).
    private func waitForMode(_ mode: SessionMode, of player: MPVPlayer,
                             file: StaticString = #filePath, line: UInt = #line) async {
        let reached = await eventually(timeout: .seconds(5)) {
            self.engineMode(of: player) == mode && self.tracked(player)?.mode == mode.rawValue
        }
        XCTAssertTrue(reached, "\(player.busName) not in mode \(mode): \(tracked(player).map { "\($0)" } ?? "untracked"), log \(logs.elements)",
                      file: file, line: line)
    }

    /// A navigation prompt as an app built on the library registers it (G-APP-NAV).
    private func prompt() throws -> RemoteSession {
        try makeClient().register(SessionConfiguration(.playback, mode: .voicePrompt,
                                                       options: [.duckOthers, .interruptSpokenAudioAndMixWithOthers]),
                                  name: "navigation")
    }

    /// Asserts mpv is still `status` once it has handled every command the tracker sent it so far
    /// (a wrong Pause or Play included), asked on the tracker's connection (the daemon's).
    private func assertStays(_ player: MPVPlayer, _ status: String, file: StaticString = #filePath, line: UInt = #line) async throws {
        let now = try await player.playbackStatus(through: daemon.connection)
        XCTAssertEqual(now, status, "log \(logs.elements)", file: file, line: line)
    }

    /// The prompt pauses `player` while it speaks and its end (with notify-others) plays it again.
    private func assertPromptPausesAndResumes(_ player: MPVPlayer, file: StaticString = #filePath, line: UInt = #line) async throws {
        let navigation = try prompt()
        let volume = try await player.volume()
        try navigation.activate()
        let paused = await player.waitForStatus("Paused")
        XCTAssertTrue(paused, "the prompt did not pause spoken audio: \(logs.elements)", file: file, line: line)
        XCTAssertEqual(tracked(player)?.pausedByPolicy, true, file: file, line: line)
        let unchanged = try await player.volume()
        XCTAssertEqual(unchanged, volume, "spoken audio is paused, not ducked", file: file, line: line)
        try await assertStays(player, "Paused", file: file, line: line)

        try navigation.deactivate(notifyOthers: true)
        let resumed = await player.waitForStatus("Playing")
        XCTAssertTrue(resumed, "the prompt's end did not resume spoken audio: \(logs.elements)", file: file, line: line)
        let released = await eventually { self.tracked(player)?.pausedByPolicy == false }
        XCTAssertTrue(released, file: file, line: line)
    }

    // MARK: Tests

    func testAPodcastByItsGenreIsPausedUnderAPromptAndResumedAfter() async throws {
        try await startTracker()
        let mpv = try await startPlayer(try tone("episode.wav", genre: "Podcast"))
        await waitForMode(.spokenAudio, of: mpv)
        XCTAssertEqual(tracked(mpv)?.modeReason, "genre 'Podcast'")
        try await logs.wait(for: "the spoken-audio log line", timeout: .seconds(5)) { lines in
            lines.first { $0.contains("\(mpv.busName) is spoken audio (genre 'Podcast')") }
        }
        try await assertPromptPausesAndResumes(mpv)
    }

    func testAPlayerRuleMarksMusicAsSpokenAudioForEveryPlayerAlreadyTracked() async throws {
        try await startTracker()
        let mpv = try await startPlayer(try tone("song.wav", genre: "Jazz"))
        await waitForMode(.default, of: mpv)

        let rules = AppRules(parsing: "player MPV = spokenAudio  # matched without regard to case\n", path: "/apps")
        XCTAssertEqual(rules.problems, [])
        tracker.setRules(rules)
        await waitForMode(.spokenAudio, of: mpv)
        XCTAssertEqual(tracked(mpv)?.modeReason, "rule line 1")
        try await assertPromptPausesAndResumes(mpv)
    }

    func testARuleGivenBeforeStartAppliesToThePlayersFound() async throws {
        let mpv = try await MPVPlayer.start(bus: bus, file: try tone("song.wav", genre: nil))
        players.append(mpv)
        tracker.setRules(AppRules(parsing: "player mpv = playback spokenAudio", path: "/apps"))
        try await startTracker()
        await waitForMode(.spokenAudio, of: mpv)
        try await assertPromptPausesAndResumes(mpv)
    }

    func testMusicIsDuckedNotPausedAndRestoredAfter() async throws {
        try await startTracker()
        let mpv = try await startPlayer(try tone("song.wav", genre: "Jazz"))
        await waitForMode(.default, of: mpv)
        let volumes = try await AnnouncedProperty.watch("Volume", of: mpv, on: daemon.connection)
        try await mpv.setVolume(0.8)
        let set = await eventually { (try? await mpv.volume()) == 0.8 }
        XCTAssertTrue(set)
        // mpv-mpris announces a volume late: the tracker (on the daemon's connection) is to have
        // handled that announcement before the ducking.
        let announced = await volumes.waitFor(.double(0.8))
        XCTAssertTrue(announced, "mpv never announced Volume 0.8: \(volumes.values)")
        try await daemon.connection.roundTrip()

        let navigation = try prompt()
        try navigation.activate()
        let ducked = await eventually { ((try? await mpv.volume()) ?? 1) < 0.5 }
        XCTAssertTrue(ducked, "the prompt did not duck music: \(logs.elements)")
        try await assertStays(mpv, "Playing")
        XCTAssertEqual(tracked(mpv)?.pausedByPolicy, false)

        try navigation.deactivate(notifyOthers: true)
        let restored = await eventually { (try? await mpv.volume()) == 0.8 }
        let after = try await mpv.volume()
        XCTAssertTrue(restored, "volume not restored to 0.8, is \(after): \(logs.elements)")
        try await assertStays(mpv, "Playing")
    }

    func testARuleSayingPlaybackOverridesAPodcastGenre() async throws {
        tracker.setRules(AppRules(parsing: "player mpv = music", path: "/apps"))
        try await startTracker()
        let mpv = try await startPlayer(try tone("episode.wav", genre: "Podcast"))
        await waitForMode(.default, of: mpv)
        XCTAssertEqual(tracked(mpv)?.modeReason, "rule line 1")

        let navigation = try prompt()
        try navigation.activate()
        let ducked = await eventually { ((try? await mpv.volume()) ?? 1) < 0.5 }
        XCTAssertTrue(ducked, "the prompt did not duck the player the rule calls music: \(logs.elements)")
        try await assertStays(mpv, "Playing")
        try navigation.deactivate(notifyOthers: true)
    }

    /// Two players already playing when the daemon started play on side by side; a new track
    /// making one of them spoken audio must not re-arbitrate it into pausing the other. Its mode
    /// changes when it next starts playing.
    func testBecomingSpokenAudioBesideAnAdoptedPlayerPausesNobody() async throws {
        let song = try tone("song.wav", genre: "Jazz")
        let first = try await MPVPlayer.start(bus: bus, file: song)
        let second = try await MPVPlayer.start(bus: bus, file: song)
        players += [first, second]
        try await startTracker()
        let adopted = await eventually(timeout: .seconds(10)) {
            self.tracked(first)?.status == "Playing" && self.tracked(second)?.status == "Playing"
        }
        XCTAssertTrue(adopted, "\(tracker.players), \(logs.elements)")

        try await first.openURI(URL(fileURLWithPath: try tone("episode.wav", genre: "Podcast")).absoluteString)
        try await logs.wait(for: "the deferred mode change", timeout: .seconds(5)) { lines in
            lines.first { $0.contains("\(first.busName) becomes spoken audio when it next starts") }
        }
        try await assertStays(second, "Playing")
        XCTAssertEqual(engineMode(of: first), .default)

        try await first.pause()
        let paused = await eventually { self.tracked(first)?.status == "Paused" }
        XCTAssertTrue(paused)
        try await first.play()
        await waitForMode(.spokenAudio, of: first)
    }

    func testTheModeFollowsEachTracksMetadata() async throws {
        try await startTracker()
        let song = try tone("song.wav", genre: "Jazz")
        let episode = try tone("episode.wav", genre: "Audiobooks; Fiction")
        let mpv = try await startPlayer(song)
        await waitForMode(.default, of: mpv)

        try await mpv.openURI(URL(fileURLWithPath: episode).absoluteString)
        await waitForMode(.spokenAudio, of: mpv)
        XCTAssertEqual(tracked(mpv)?.modeReason, "genre 'Audiobooks; Fiction'")
        try await assertPromptPausesAndResumes(mpv)

        try await mpv.openURI(URL(fileURLWithPath: song).absoluteString)
        await waitForMode(.default, of: mpv)
        try await logs.wait(for: "the log line saying it is no longer spoken audio", timeout: .seconds(5)) { lines in
            lines.first { $0.contains("\(mpv.busName) is not spoken audio: a prompt ducks it") }
        }
    }
}
