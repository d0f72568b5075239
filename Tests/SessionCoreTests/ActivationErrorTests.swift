import XCTest
@testable import SessionCore

/// The activation errors of the field notes and the delayed activation behind a call (G-CALLS).
final class ActivationErrorTests: XCTestCase {
    func testIsBusyStillDeactivates() throws {
        var h = Harness()
        let music = h.add(SessionConfiguration(.playback))
        let victim = h.add(SessionConfiguration(.playback))
        h.activate(victim)
        h.activate(music)
        try h.engine.setIORunning(music, true)
        let decision = h.deactivate(music, notify: true)
        XCTAssertEqual(decision.error, .isBusy)
        XCTAssertFalse(h.isActive(music), "deactivated anyway")
        XCTAssertEqual(h.interruptions(victim), [began, endedResume], "and its effects undone")
        XCTAssertEqual(h.snapshot(music)?.isIORunning, false)
        XCTAssertEqual(h.deactivate(music).outcome, .done, "no I/O any more: not busy")
    }

    func testStartingIOOnInactiveSessionIsSessionNotActive() throws {
        var h = Harness()
        let id = h.add(SessionConfiguration(.playback))
        XCTAssertThrowsError(try h.engine.setIORunning(id, true)) { error in
            XCTAssertEqual(error as? SessionError, .sessionNotActive)
        }
        h.activate(id)
        XCTAssertNoThrow(try h.engine.setIORunning(id, true))
    }

    func testNotifyOthersOnlyOnDeactivationAndDelayOnlyOnActivation() {
        var h = Harness()
        let id = h.add(SessionConfiguration(.playback))
        XCTAssertEqual(h.activate(id, .notifyOthersOnDeactivation).error,
                       .badParam(.optionNotValidHere(.notifyOthersOnDeactivation)))
        XCTAssertFalse(h.isActive(id))
        h.activate(id)
        XCTAssertEqual(h.engine.deactivate(id, options: .allowDelayedActivation).error,
                       .badParam(.optionNotValidHere(.allowDelayedActivation)))
        XCTAssertTrue(h.isActive(id))
    }

    func testRecordingNeedsPermissionForEveryInputCategory() throws {
        for category in SessionCategory.allCases {
            for permission in RecordPermission.allCases {
                var h = Harness()
                let id = h.add(SessionConfiguration(category), permission: permission)
                let decision = h.activate(id)
                if category.hasInput && permission != .granted {
                    XCTAssertEqual(decision.error, .cannotStartRecording, "\(category) \(permission)")
                } else {
                    XCTAssertEqual(decision.outcome, .done, "\(category) \(permission)")
                }
            }
        }
    }

    func testRecordingFailsWithMutedBuiltInMicUnlessOverridden() {
        var h = Harness(SystemConditions(isBuiltInMicMuted: true))
        let plain = h.add(SessionConfiguration(.playAndRecord))
        let overriding = h.add(SessionConfiguration(.playAndRecord, options: .overrideMutedMicrophoneInterruption))
        XCTAssertEqual(h.activate(plain).error, .cannotStartRecording)
        XCTAssertEqual(h.activate(overriding).outcome, .done)
        h.connect(headsetMic)
        XCTAssertEqual(h.activate(plain).outcome, .done, "a headset mic is not muted")
    }

    func testNoOutputPortIsCannotStartPlaying() {
        var h = Harness(SystemConditions(availableOutputs: []))
        let id = h.add(SessionConfiguration(.playback))
        XCTAssertEqual(h.activate(id).error, .cannotStartPlaying)
    }

    func testCallRefusesNonMixingButAdmitsMixingAndCalls() {
        var h = Harness()
        let call = h.add(SessionConfiguration(.playAndRecord, mode: .voiceChat))
        let music = h.add(SessionConfiguration(.playback))
        let prompt = h.add(SessionConfiguration(.playback, options: .duckOthers))
        let secondCall = h.add(SessionConfiguration(.playAndRecord, mode: .videoChat))
        h.activate(call)
        XCTAssertEqual(h.activate(music).error, .insufficientPriority)
        XCTAssertEqual(h.activate(prompt).outcome, .done)
        XCTAssertFalse(h.isDucked(call), "a call is never ducked")
        XCTAssertEqual(h.activate(secondCall).outcome, .done, "a call can interrupt anything")
        XCTAssertEqual(h.snapshot(call)?.interruptedBy, .session(secondCall))
    }

    func testDelayedActivationIsGrantedWhenTheCallEnds() {
        var h = Harness()
        let music = h.add(SessionConfiguration(.playback))
        let call = h.add(SessionConfiguration(.playAndRecord, mode: .voiceChat))
        let audiobook = h.add(SessionConfiguration(.playback, mode: .spokenAudio))
        h.activate(music)
        h.activate(call)
        XCTAssertEqual(h.activate(audiobook, .allowDelayedActivation).outcome, .delayed)
        XCTAssertEqual(h.snapshot(audiobook)?.isActivationPending, true)
        XCTAssertEqual(h.engine.pendingActivations, [audiobook])
        XCTAssertFalse(h.isActive(audiobook))
        _ = h.take(music)

        h.deactivate(call, notify: true)
        XCTAssertTrue(h.isActive(audiobook))
        XCTAssertEqual(h.take(audiobook).filter { $0 == .delayedActivation(.granted) }.count, 1)
        XCTAssertFalse(h.isActive(music), "the newer request wins; the music stays interrupted")
        XCTAssertEqual(h.snapshot(music)?.interruptedBy, .session(audiobook), "now held by the audiobook")
        XCTAssertEqual(h.interruptions(music), [], "no ended yet: still blocked")
        h.deactivate(audiobook, notify: true)
        XCTAssertEqual(h.interruptions(music), [endedResume])
    }

    func testLatestDelayedRequestWins() {
        var h = Harness()
        let call = h.add(SessionConfiguration(.playAndRecord, mode: .voiceChat))
        let a = h.add(SessionConfiguration(.playback))
        let b = h.add(SessionConfiguration(.playback))
        h.activate(call)
        XCTAssertEqual(h.activate(a, .allowDelayedActivation).outcome, .delayed)
        XCTAssertEqual(h.activate(b, .allowDelayedActivation).outcome, .delayed)
        XCTAssertEqual(h.take(a).filter { if case .delayedActivation = $0 { true } else { false } },
                       [.delayedActivation(.refused(.insufficientPriority))])
        XCTAssertEqual(h.engine.pendingActivations, [b])
        h.deactivate(call)
        XCTAssertTrue(h.isActive(b))
        XCTAssertFalse(h.isActive(a))
    }

    func testDelayedActivationCancelledByDeactivationOrRemoval() {
        var h = Harness()
        let call = h.add(SessionConfiguration(.playAndRecord, mode: .voiceChat))
        let a = h.add(SessionConfiguration(.playback))
        let b = h.add(SessionConfiguration(.playback))
        h.activate(call)
        h.activate(a, .allowDelayedActivation)
        h.deactivate(a)
        h.activate(b, .allowDelayedActivation)
        h.remove(b)
        XCTAssertEqual(h.engine.pendingActivations, [])
        h.deactivate(call)
        XCTAssertFalse(h.isActive(a))
        XCTAssertFalse(h.take(a).contains { if case .delayedActivation = $0 { true } else { false } })
    }

    func testDelayedActivationRefusedWhenItCanNoLongerStart() {
        var h = Harness()
        let call = h.add(SessionConfiguration(.playAndRecord, mode: .voiceChat))
        let game = h.add(SessionConfiguration(.soloAmbient))
        h.activate(call)
        XCTAssertEqual(h.activate(game, .allowDelayedActivation).outcome, .delayed)
        h.lock(true)
        h.deactivate(call)
        XCTAssertFalse(h.isActive(game))
        XCTAssertEqual(h.take(game).filter { $0 == .delayedActivation(.refused(.cannotStartPlaying)) }.count, 1)
    }

    func testMediaServicesLostEndsEverythingAndFailsActivations() {
        var h = Harness()
        let music = h.add(SessionConfiguration(.playback))
        let prompt = h.add(SessionConfiguration(.playback, options: .duckOthers))
        let other = h.add(SessionConfiguration(.playback))
        h.activate(music)
        h.activate(other)
        h.activate(prompt)
        _ = h.take(music); _ = h.take(other)
        h.record(h.engine.mediaServicesLost())
        XCTAssertEqual(h.take(music), [.interruption(endedNoResume), .secondaryAudioHint(.end), .mediaServicesLost])
        XCTAssertEqual(h.take(other), [.ducking(.ended), .mediaServicesLost])
        XCTAssertFalse(h.isDucked(other))
        XCTAssertTrue(h.engine.activeSessions.isEmpty)
        XCTAssertEqual(h.activate(music).error, .mediaServicesFailed)
        h.record(h.engine.mediaServicesReset())
        XCTAssertEqual(h.take(music), [.mediaServicesReset])
        XCTAssertEqual(h.activate(music).outcome, .done)
    }

    func testReactivatingAnInterruptedSessionEndsItsOwnInterruptionFirst() {
        var h = Harness()
        let a = h.add(SessionConfiguration(.playback))
        let b = h.add(SessionConfiguration(.playback))
        h.activate(a)
        h.activate(b)
        XCTAssertEqual(h.interruptions(a), [began])
        h.activate(a)  // the user presses play in A
        XCTAssertEqual(h.interruptions(a), [endedNoResume])
        XCTAssertEqual(h.interruptions(b), [began])
        XCTAssertEqual(h.snapshot(b)?.interruptedBy, .session(a))
        XCTAssertEqual(h.snapshot(a)?.interruptedBy, nil)
    }

    func testReconfiguringAnActiveSessionReArbitrates() throws {
        var h = Harness()
        let music = h.add(SessionConfiguration(.playback))
        let game = h.add(SessionConfiguration(.ambient))
        h.activate(music)
        h.activate(game)
        XCTAssertTrue(h.isActive(music))
        h.record(try h.engine.configure(game, SessionConfiguration(.soloAmbient)).effects)
        XCTAssertFalse(h.isActive(music), "now non-mixing: interrupts the music")
        XCTAssertEqual(h.interruptions(music), [began])
        let call = h.add(SessionConfiguration(.playAndRecord, mode: .voiceChat))
        h.activate(call)
        let mixer = h.add(SessionConfiguration(.ambient))
        h.activate(mixer)
        XCTAssertThrowsError(try h.engine.configure(mixer, SessionConfiguration(.playback))) { error in
            XCTAssertEqual(error as? SessionError, .insufficientPriority)
        }
        XCTAssertEqual(h.snapshot(mixer)?.configuration, SessionConfiguration(.ambient), "unchanged")
    }
}
