import AudioPolicyClient
import AudioPolicyDaemon
import DBus
import Foundation
import MPRISDirectory
import SessionCore
import TestSupport
import XCTest

/// The policy applied to a real foreign MPRIS player (mpv with mpv-mpris) by `ForeignPlayerTracker`
/// and an in-process `AudioSystem`: each test checks the player's own MPRIS state.
final class ForeignPlayerTrackerTests: BusTestCase {
    private var system: AudioSystem!
    private var tracker: ForeignPlayerTracker!
    private var logs: EventRecord<String>!
    private var tone: String!
    private var players: [MPVPlayer] = []
    /// The tracker's connection (its directory's), where its commands to the players go.
    private var trackerConnection: Connection!

    override func setUpWithError() throws {
        try XCTSkipUnless(MPVPlayer.isAvailable, "mpv and mpv-mpris are not installed")
        try super.setUpWithError()
        tone = bus.directory.appendingPathComponent("tone.wav").path
        try WAVFile.writeCountingTone(seconds: 1, to: tone)
        system = AudioSystem()
        let logs = EventRecord<String>()
        self.logs = logs
        trackerConnection = try connect()
        tracker = ForeignPlayerTracker(directory: PlayerDirectory(connection: trackerConnection), system: system,
                                       isOwnSession: { _ in false }, log: { logs.append($0) })
    }

    override func tearDown() {
        tracker?.stop()
        tracker = nil
        for player in players { player.kill() }
        players.removeAll()
        system = nil
        super.tearDown()
    }

    // MARK: Helpers

    private func startTracker() async throws {
        let started = EventRecord<Result<Void, DBusError>>()
        tracker.start { started.append($0) }
        let result = try await started.wait(for: "the tracker to start") { $0.first }
        try result.get()
    }

    /// Starts mpv and waits until the tracker has it as a session with status `status`.
    private func startPlayer(paused: Bool = false) async throws -> MPVPlayer {
        let player = try await MPVPlayer.start(bus: bus, file: tone, paused: paused)
        players.append(player)
        let status = paused ? "Paused" : "Playing"
        let seen = await eventually { self.tracked(player)?.status == status }
        XCTAssertTrue(seen, "the tracker never saw \(player.busName) \(status): \(tracker.players), log \(logs.elements)")
        return player
    }

    private func tracked(_ player: MPVPlayer) -> PolicyStatus.Player? {
        tracker.players.first { $0.busName == player.busName }
    }

    private func session(of player: MPVPlayer) -> SessionSnapshot? {
        guard let id = tracked(player)?.session else { return nil }
        return system.engine.session(SessionID(rawValue: id))
    }

    private func makeCall() throws -> AudioSession {
        let call = try system.makeSession(SessionConfiguration(.playAndRecord, mode: .voiceChat))
        call.requestRecordPermission()
        return call
    }

    /// Waits for a log line containing every fragment.
    private func waitForLog(_ fragments: String...) async throws {
        try await logs.wait(for: "a log line with \(fragments)", timeout: .seconds(5)) { lines in
            lines.first { line in fragments.allSatisfy { line.contains($0) } }
        }
    }

    // MARK: Tests

    func testPlayingPlayerIsAnActivePlaybackSession() async throws {
        try await startTracker()
        let mpv = try await startPlayer()
        let snapshot = try XCTUnwrap(session(of: mpv))
        XCTAssertTrue(snapshot.isActive)
        XCTAssertEqual(snapshot.configuration.category, .playback)
        XCTAssertEqual(tracked(mpv)?.owner, mpv.uniqueName)

        try await mpv.pause()  // the user pauses: the session goes inactive
        let inactive = await eventually { self.session(of: mpv)?.isActive == false }
        XCTAssertTrue(inactive, "the session stayed active after the user paused")
    }

    func testCallPausesPlayerAndNotifyOthersResumesIt() async throws {
        try await startTracker()
        let mpv = try await startPlayer()
        let call = try makeCall()
        try call.setActive(true)
        let paused = await mpv.waitForStatus("Paused")
        XCTAssertTrue(paused, "mpv kept playing during the call")
        try await waitForLog("paused \(mpv.busName): interrupted by session \(call.id.rawValue)")
        XCTAssertEqual(tracked(mpv)?.pausedByPolicy, true)
        XCTAssertEqual(session(of: mpv)?.isInterrupted, true, "our own pause must not end the interruption")

        try call.setActive(false, options: .notifyOthersOnDeactivation)
        let resumed = await mpv.waitForStatus("Playing")
        XCTAssertTrue(resumed, "mpv was not resumed after the call: \(logs.elements)")
        let active = await eventually { self.session(of: mpv)?.isActive == true }
        XCTAssertTrue(active, "the resumed player's session is not active")
        XCTAssertEqual(tracked(mpv)?.pausedByPolicy, false)
    }

    func testWithoutNotifyOthersPlayerStaysPaused() async throws {
        try await startTracker()
        let mpv = try await startPlayer()
        let call = try makeCall()
        try call.setActive(true)
        let paused = await mpv.waitForStatus("Paused")
        XCTAssertTrue(paused)
        try call.setActive(false)
        try await waitForLog("\(mpv.busName) stays paused")
        let status = try await mpv.playbackStatus(through: trackerConnection)  // after a wrong Play, had one been sent
        XCTAssertEqual(status, "Paused")
        XCTAssertEqual(tracked(mpv)?.pausedByPolicy, false)
    }

    func testDuckingLowersVolumeAndRestoresTheExactValue() async throws {
        try await startTracker()
        let mpv = try await startPlayer()
        let announced = try await AnnouncedProperty.watch("Volume", of: mpv, on: trackerConnection)
        try await mpv.setVolume(0.73)
        let prior = try await mpv.volume()
        let seen = await eventually { self.tracked(mpv) != nil }
        XCTAssertTrue(seen)
        // The tracker sees the user's volume before ducking (mpv-mpris announces it up to 100 ms
        // after setting it; the tracker handles that same message on the same connection).
        let heard = await announced.waitFor(.double(prior))
        XCTAssertTrue(heard, "mpv never announced Volume \(prior): \(announced.values)")
        try await trackerConnection.roundTrip()

        let prompt = try system.makeSession(SessionConfiguration(.playback, options: [.mixWithOthers, .duckOthers]))
        try prompt.setActive(true)
        let lowered = await eventually { ((try? await mpv.volume()) ?? 1) < prior * 0.5 }
        XCTAssertTrue(lowered, "mpv's volume was not lowered: \(logs.elements)")
        XCTAssertEqual(tracked(mpv)?.ducked, true)
        let statusWhileDucked = try await mpv.playbackStatus()
        XCTAssertEqual(statusWhileDucked, "Playing", "ducking must not pause")

        try prompt.setActive(false)
        let restored = await eventually { (try? await mpv.volume()) == prior }
        let now = try await mpv.volume()
        XCTAssertTrue(restored, "volume \(now) is not the prior \(prior)")
        XCTAssertEqual(tracked(mpv)?.ducked, false)
    }

    func testSecondPlayerInterruptsTheFirstForGood() async throws {
        try await startTracker()
        let first = try await startPlayer()
        let second = try await startPlayer(paused: true)
        XCTAssertNotEqual(first.busName, second.busName)
        try await second.play()  // the user starts the second one
        let paused = await first.waitForStatus("Paused")
        XCTAssertTrue(paused, "the first player kept playing: \(logs.elements)")
        let secondStatus = try await second.playbackStatus()
        XCTAssertEqual(secondStatus, "Playing")
        // The interrupter is named by its bus name, not by an engine id.
        try await waitForLog("paused \(first.busName): interrupted by \(second.busName)")

        try await second.pause()  // stops by itself: no notify-others
        let secondInactive = await eventually { self.session(of: second)?.isActive == false }
        XCTAssertTrue(secondInactive)
        let firstStatus = try await first.playbackStatus(through: trackerConnection)  // after a wrong Play, had one been sent
        XCTAssertEqual(firstStatus, "Paused", "the first player was resumed")
    }

    func testLosingTheRoutePausesThePlayer() async throws {
        let headphones = AudioPort(id: "jack", name: "Headphones", type: .headphones)
        system.connect([headphones])
        try await startTracker()
        let mpv = try await startPlayer()
        XCTAssertEqual(session(of: mpv)?.route.outputs.map(\.id), ["jack"])
        system.disconnect(["jack"])
        let paused = await mpv.waitForStatus("Paused")
        XCTAssertTrue(paused, "mpv kept playing on the speaker: \(logs.elements)")
        try await waitForLog("paused \(mpv.busName): output Headphones went away")
        let inactive = await eventually { self.session(of: mpv)?.isActive == false }
        XCTAssertTrue(inactive, "a player paused by unplugging still holds an active session")
        XCTAssertEqual(tracked(mpv)?.pausedByPolicy, false)
    }

    func testPlayerPausedByTheUserIsNotResumed() async throws {
        try await startTracker()
        let mpv = try await startPlayer()
        try await mpv.pause()
        let inactive = await eventually { self.session(of: mpv)?.isActive == false }
        XCTAssertTrue(inactive)
        let call = try makeCall()
        try call.setActive(true)
        try call.setActive(false, options: .notifyOthersOnDeactivation)
        let status = try await mpv.playbackStatus(through: trackerConnection)  // after a wrong Play, had one been sent
        XCTAssertEqual(status, "Paused")
        XCTAssertFalse(logs.elements.contains { $0.hasPrefix("resumed") }, "\(logs.elements)")
    }

    func testPlayerKilledWhileDuckedIsDropped() async throws {
        try await startTracker()
        let mpv = try await startPlayer()
        let prompt = try system.makeSession(SessionConfiguration(.playback, options: [.mixWithOthers, .duckOthers]))
        try prompt.setActive(true)
        let ducked = await eventually { self.tracked(mpv)?.ducked == true }
        XCTAssertTrue(ducked)
        let id = try XCTUnwrap(tracked(mpv)?.session)
        mpv.kill()
        let gone = await eventually { self.tracker.players.isEmpty }
        XCTAssertTrue(gone, "the killed player is still tracked: \(tracker.players)")
        // Removed from the table first, then released outside the tracker's lock.
        let removed = await eventually { self.system.engine.session(SessionID(rawValue: id)) == nil }
        XCTAssertTrue(removed, "its session was not removed")
        try prompt.setActive(false)  // the ducking ends with nobody left to restore: no crash
        XCTAssertTrue(system.engine.activeSessions.isEmpty)
    }

    func testPlayerAlreadyThereIsFoundAtStart() async throws {
        let mpv = try await MPVPlayer.start(bus: bus, file: tone)
        players.append(mpv)
        try await startTracker()
        let seen = await eventually { self.tracked(mpv)?.status == "Playing" }
        XCTAssertTrue(seen, "\(tracker.players)")
        XCTAssertEqual(session(of: mpv)?.isActive, true)
    }

    func testOwnSessionsAreLeftAlone() async throws {
        let mpv = try await MPVPlayer.start(bus: bus, file: tone)
        players.append(mpv)
        let logs = self.logs!
        let unique = mpv.uniqueName
        tracker = ForeignPlayerTracker(directory: PlayerDirectory(connection: try connect()), system: system,
                                       isOwnSession: { $0 == unique }, log: { logs.append($0) })
        try await startTracker()
        try await waitForLog("left \(mpv.busName) alone")
        XCTAssertTrue(tracker.players.isEmpty)
        XCTAssertTrue(system.engine.sessionIDs.isEmpty)
    }

    func testStoppingTheTrackerRestoresADuckedVolume() async throws {
        try await startTracker()
        let mpv = try await startPlayer()
        let prior = try await mpv.volume()
        let prompt = try system.makeSession(SessionConfiguration(.playback, options: [.mixWithOthers, .duckOthers]))
        try prompt.setActive(true)
        let lowered = await eventually { ((try? await mpv.volume()) ?? 1) < prior * 0.5 }
        XCTAssertTrue(lowered)
        tracker.stop()
        let restored = await eventually { (try? await mpv.volume()) == prior }
        XCTAssertTrue(restored, "stopping the tracker left mpv ducked")
        XCTAssertTrue(tracker.players.isEmpty)
    }

    /// A player that stops answering (SIGSTOP) holds nothing up: the other player is still paused
    /// at once when a call comes, long before the hung one's calls time out.
    func testHungPlayerBlocksNothing() async throws {
        try await startTracker()
        let hung = try await startPlayer()
        let other = try await startPlayer(paused: true)
        kill(hung.pid, SIGSTOP)
        try await other.play()  // interrupts the hung one: its Pause is never answered
        let started = await eventually { self.session(of: other)?.isActive == true }
        XCTAssertTrue(started, "\(logs.elements)")

        let call = try makeCall()
        let clock = ContinuousClock()
        let start = clock.now
        try call.setActive(true)
        let paused = await other.waitForStatus("Paused", timeout: .seconds(3))
        XCTAssertTrue(paused, "\(logs.elements)")
        XCTAssertLessThan(clock.now - start, .seconds(3))
        hung.kill()
        let gone = await eventually { self.tracked(hung) == nil }
        XCTAssertTrue(gone, "the killed player is still tracked")
    }
}
