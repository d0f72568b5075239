import XCTest
@testable import SessionCore

/// Before sleep (issue 16): logind's `PrepareForSleep(true)` interrupts every playing session,
/// and the wake-up resumes none of them (the G-HEADPHONES-OUT reasoning).
final class SleepTests: XCTestCase {
    func testSleepInterruptsEveryPlayingSessionAndTheWakeUpResumesNone() {
        var h = Harness()
        let music = h.add(SessionConfiguration(.playback))
        let chime = h.add(SessionConfiguration(.ambient))
        let recorder = h.add(SessionConfiguration(.record))
        let idle = h.add(SessionConfiguration(.playback))
        // The recorder joins as it finds them (a recording would interrupt the music otherwise).
        for id in [music, chime] { XCTAssertEqual(h.activate(id).outcome, .done) }
        XCTAssertEqual(h.activate(recorder, .alongsideOthers).outcome, .done)
        XCTAssertTrue(h.isActive(music))
        _ = [music, chime, recorder, idle].map { h.take($0) }

        h.record(h.engine.prepareForSleep())
        XCTAssertEqual(h.interruptions(music), [.began(reason: .sleep)])
        XCTAssertEqual(h.interruptions(chime), [.began(reason: .sleep)], "mixing sessions play too")
        XCTAssertEqual(h.snapshot(music)?.interruptedBy, .sleep)
        XCTAssertFalse(h.isActive(music))
        XCTAssertFalse(h.isActive(chime))
        XCTAssertTrue(h.isActive(recorder), "a session that only records is not playing")
        XCTAssertEqual(h.interruptions(recorder), [])
        XCTAssertEqual(h.interruptions(idle), [], "an inactive session hears nothing")

        h.record(h.engine.wokeFromSleep())
        XCTAssertEqual(h.interruptions(music), [.ended(options: [])], "never shouldResume after a sleep")
        XCTAssertEqual(h.interruptions(chime), [.ended(options: [])])
        XCTAssertNil(h.snapshot(music)?.interruptedBy)
        XCTAssertFalse(h.isActive(music))
        XCTAssertEqual(h.interruptions(recorder), [])

        h.record(h.engine.wokeFromSleep())
        XCTAssertEqual(h.interruptions(music), [], "a second wake-up has nothing left to end")
    }

    func testTheUsersNextPlayResumesAsUsual() {
        var h = Harness()
        let music = h.add(SessionConfiguration(.playback))
        h.activate(music)
        h.record(h.engine.prepareForSleep())
        XCTAssertEqual(h.interruptions(music), [.began(reason: .sleep)])

        XCTAssertEqual(h.activate(music).outcome, .done, "Play after the wake-up (or before it came)")
        XCTAssertEqual(h.interruptions(music), [.ended(options: [])], "began and ended stay paired")
        XCTAssertTrue(h.isActive(music))
        h.record(h.engine.wokeFromSleep())
        XCTAssertEqual(h.interruptions(music), [], "the wake-up leaves a session that plays again alone")
        XCTAssertTrue(h.isActive(music))
    }

    func testACallInterruptedBySleepHandsNothingBackAfterTheWakeUp() {
        var h = Harness()
        let music = h.add(SessionConfiguration(.playback))
        let call = h.add(SessionConfiguration(.playAndRecord, mode: .voiceChat))
        h.activate(music)
        h.activate(call)
        XCTAssertEqual(h.interruptions(music), [.began(reason: .default)])

        h.record(h.engine.prepareForSleep())
        XCTAssertEqual(h.interruptions(call), [.began(reason: .sleep)])
        XCTAssertEqual(h.interruptions(music), [], "the music stays held by the call")

        h.record(h.engine.wokeFromSleep())
        XCTAssertEqual(h.interruptions(call), [.ended(options: [])])
        XCTAssertEqual(h.interruptions(music), [.ended(options: [])], "the call's victim is not resumed either")
        XCTAssertTrue(h.engine.activeSessions.isEmpty)
    }

    func testAnActivationQueuedBehindTheCallIsRefusedNotGranted() {
        var h = Harness()
        let call = h.add(SessionConfiguration(.playAndRecord, mode: .voiceChat))
        let music = h.add(SessionConfiguration(.playback))
        h.activate(call)
        XCTAssertEqual(h.activate(music, .allowDelayedActivation).outcome, .delayed)

        h.record(h.engine.prepareForSleep())
        let refusals = h.take(music).filter { if case .delayedActivation = $0 { true } else { false } }
        XCTAssertEqual(refusals, [.delayedActivation(.refused(.insufficientPriority))])
        XCTAssertFalse(h.isActive(music), "the call's end by sleep must not start the music")
        XCTAssertTrue(h.engine.pendingActivations.isEmpty)
    }

    func testSparedSessionsKeepPlaying() {
        var h = Harness()
        let app = h.add(SessionConfiguration(.playback))
        let prompt = h.add(SessionConfiguration(.playback, mode: .spokenAudio, options: .duckOthers))
        h.activate(app, .alongsideOthers)
        h.activate(prompt, .alongsideOthers)
        _ = h.take(app)
        _ = h.take(prompt)

        h.record(h.engine.prepareForSleep(sparing: [app]))
        XCTAssertEqual(h.take(app).filter { if case .interruption = $0 { true } else { false } }, [],
                       "an implicit session nothing would resume is not interrupted")
        XCTAssertTrue(h.isActive(app))
        XCTAssertEqual(h.interruptions(prompt), [.began(reason: .sleep)])
        XCTAssertFalse(h.isDucked(app), "the interrupted ducker's ducking ends")

        h.record(h.engine.wokeFromSleep())
        XCTAssertTrue(h.isActive(app))
        XCTAssertEqual(h.interruptions(app), [])
    }

    func testMediaServicesLostForgetsTheSleep() {
        var h = Harness()
        let music = h.add(SessionConfiguration(.playback))
        h.activate(music)
        h.record(h.engine.prepareForSleep())
        h.record(h.engine.mediaServicesLost())
        XCTAssertEqual(h.interruptions(music), [.began(reason: .sleep), .ended(options: [])])
        h.record(h.engine.wokeFromSleep())
        XCTAssertEqual(h.interruptions(music), [], "ended once only")
    }
}
