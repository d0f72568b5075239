import XCTest
import Synchronization
@testable import SessionCore

/// The in-process session object: async sequences, callbacks, release = vanish, re-entrancy and
/// concurrent use.
final class AudioSessionTests: XCTestCase {
    func testInterruptionsArriveOnTheAsyncSequence() async throws {
        let system = AudioSystem()
        let music = try system.makeSession(SessionConfiguration(.playback))
        let rival = try system.makeSession(SessionConfiguration(.playback))
        let interruptions = music.interruptions
        try music.setActive(true)
        try rival.setActive(true)
        try rival.setActive(false, options: .notifyOthersOnDeactivation)
        var received: [InterruptionEvent] = []
        for await event in interruptions {
            received.append(event)
            if received.count == 2 { break }
        }
        XCTAssertEqual(received, [began, endedResume])
    }

    func testTypedStreamsFilterTheirEvents() async throws {
        let system = AudioSystem()
        let session = try system.makeSession(SessionConfiguration(.playback))
        let routes = session.routeChanges
        let volumes = session.outputVolumeChanges
        let resets = session.mediaServicesResets
        let hints = session.secondaryAudioHints
        try system.setOutputVolume(0.25)
        system.connect([headphones])
        let other = try system.makeSession(SessionConfiguration(.playback))
        try other.setActive(true)
        system.mediaServicesLost()
        system.mediaServicesReset()
        var routeIterator = routes.makeAsyncIterator()
        let route = await routeIterator.next()
        XCTAssertEqual(route?.reason, .newDeviceAvailable)
        var volumeIterator = volumes.makeAsyncIterator()
        let volume = await volumeIterator.next()
        XCTAssertEqual(volume, 0.25)
        var hintIterator = hints.makeAsyncIterator()
        let hint = await hintIterator.next()
        XCTAssertEqual(hint, .begin)
        var resetIterator = resets.makeAsyncIterator()
        let reset: Void? = await resetIterator.next()
        XCTAssertNotNil(reset)
        XCTAssertEqual(session.outputVolume, 0.25, "read-only mirror of the system volume")
    }

    func testStreamsFinishWhenTheSessionIsReleased() async throws {
        let system = AudioSystem()
        var session: AudioSession? = try system.makeSession()
        let events = session?.events
        session = nil
        var count = 0
        if let events { for await _ in events { count += 1 } }
        XCTAssertEqual(count, 0, "the stream ended")
    }

    func testReleasingTheInterrupterEndsTheInterruption() throws {
        let system = AudioSystem()
        let music = try system.makeSession(SessionConfiguration(.playback))
        let recorder = EventRecorder(music)
        try music.setActive(true)
        var rival: AudioSession? = try system.makeSession(SessionConfiguration(.playback))
        try rival?.setActive(true)
        XCTAssertTrue(music.isInterrupted)
        rival = nil  // the process went away
        XCTAssertFalse(music.isInterrupted)
        XCTAssertEqual(recorder.interruptions(), [began, endedNoResume])
        XCTAssertEqual(system.engine.sessionIDs, [music.id])
    }

    func testCallbackMayCallBackIntoTheSession() throws {
        let system = AudioSystem()
        let game = try system.makeSession(SessionConfiguration(.soloAmbient))
        let music = try system.makeSession(SessionConfiguration(.playback))
        try game.setActive(true)
        // A game without controls reactivates from its callback (G-APP-GAME).
        let subscription = game.onEvent { event in
            if case .interruption(.ended) = event { _ = try? game.setActive(true) }
        }
        try music.setActive(true)
        XCTAssertFalse(game.isActive)
        try music.setActive(false)
        system.waitForDelivery()
        XCTAssertTrue(game.isActive, "reactivated from inside the callback without deadlock")
        subscription.cancel()
        try music.setActive(true)
        try music.setActive(false)
        system.waitForDelivery()
        XCTAssertFalse(game.isActive, "a cancelled callback is not called")
    }

    func testSessionStateProperties() throws {
        let system = AudioSystem(recordPermissionDecider: { _ in .denied })
        let session = try system.makeSession()
        XCTAssertEqual(session.category, .soloAmbient)
        let change = try session.setCategory(.playback, mode: .voiceChat)
        XCTAssertEqual(change.ignoredMode, .voiceChat)
        XCTAssertEqual(session.mode, .default, "reported as default")
        XCTAssertThrowsError(try session.setCategory(.soloAmbient, options: .duckOthers)) { error in
            XCTAssertEqual(error as? SessionError, .badParam(.optionNotAllowed(option: .duckOthers, category: .soloAmbient)))
        }
        XCTAssertEqual(session.category, .playback, "previous configuration kept")
        XCTAssertEqual(session.recordPermission, .undetermined)
        XCTAssertEqual(session.requestRecordPermission(), .denied)
        try session.setCategory(.record)
        XCTAssertThrowsError(try session.setActive(true)) { error in
            XCTAssertEqual(error as? SessionError, .cannotStartRecording)
        }
        XCTAssertEqual(session.availableOutputs, [.speaker])
        XCTAssertEqual(session.availableInputs, [.builtInMic])
        XCTAssertEqual(session.currentRoute, AudioRoute(inputs: [.builtInMic]))
        system.connect([livingRoom])
        try system.setRouteOverride(livingRoom.id)
        XCTAssertEqual(session.routeOverride, livingRoom.id)
        system.setLocked(true)
        XCTAssertTrue(session.isLocked)
        system.setSilentMode(true)
        XCTAssertTrue(session.isSilentMode)
        XCTAssertFalse(session.isSilenced, "record is never silenced")
        XCTAssertThrowsError(try session.setIORunning(true))

        let game = try system.makeSession(SessionConfiguration(.ambient))
        system.setLocked(false)
        try game.setActive(true)
        try game.setInBackground(true)
        XCTAssertTrue(game.isInBackground)
        XCTAssertFalse(game.isActive, "ambient stops in background")
        try game.setInBackground(false)
        XCTAssertFalse(game.isInterrupted, "and its interruption ends in foreground")
    }

    func testIsBusyThrownAfterDeactivating() throws {
        let system = AudioSystem()
        let session = try system.makeSession(SessionConfiguration(.playback))
        try session.setActive(true)
        try session.setIORunning(true)
        XCTAssertThrowsError(try session.setActive(false)) { error in
            XCTAssertEqual(error as? SessionError, .isBusy)
        }
        XCTAssertFalse(session.isActive)
    }

    func testConcurrentUseIsSafeAndConsistent() async throws {
        let system = AudioSystem()
        var sessions: [AudioSession] = []
        for index in 0..<16 {
            sessions.append(try system.makeSession(SessionConfiguration(index % 2 == 0 ? .playback : .ambient)))
        }
        let counts = Mutex<[SessionID: Int]>([:])
        let subscriptions = sessions.map { session in
            session.onEvent { event in
                if case .interruption(let e) = event {
                    counts.withLock { $0[session.id, default: 0] += (e == began ? 1 : -1) }
                }
            }
        }
        let all = sessions
        await withTaskGroup(of: Void.self) { group in
            for (index, session) in all.enumerated() {
                group.addTask {
                    for round in 0..<200 {
                        _ = try? session.setActive((round + index) % 3 != 0,
                                                   options: (round + index) % 3 == 0 ? .notifyOthersOnDeactivation : [])
                    }
                    _ = try? session.setActive(false)
                }
            }
        }
        for session in all { _ = try? session.setActive(false) }
        system.waitForDelivery()
        XCTAssertTrue(system.engine.activeSessions.isEmpty)
        XCTAssertTrue(counts.withLock { $0.values.allSatisfy { $0 == 0 } }, "every began ended")
        XCTAssertTrue(all.allSatisfy { !$0.isInterrupted && !$0.isDucked })
        withExtendedLifetime(subscriptions) {}
    }
}
