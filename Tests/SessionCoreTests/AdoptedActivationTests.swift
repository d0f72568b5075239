import XCTest
@testable import SessionCore

/// `alongsideOthers`: a policy service adopting what already played when it started joins the
/// active sessions without interrupting them; every later activation applies the rules to all.
final class AdoptedActivationTests: XCTestCase {
    func testAdoptedSessionsPlayTogetherAndTheNextOneWinsOverAll() {
        var h = Harness()
        let first = h.add(SessionConfiguration(.playback))
        let second = h.add(SessionConfiguration(.playback))
        h.activate(first, .alongsideOthers)
        XCTAssertEqual(h.activate(second, .alongsideOthers).outcome, .done)
        XCTAssertTrue(h.isActive(first) && h.isActive(second), "both keep playing")
        XCTAssertEqual(h.interruptions(first), [])

        let newest = h.add(SessionConfiguration(.playback))
        h.activate(newest)
        XCTAssertFalse(h.isActive(first) || h.isActive(second), "the newest player wins over both")
        XCTAssertEqual(h.interruptions(first), [began])
        XCTAssertEqual(h.interruptions(second), [began])
    }

    func testAnAdoptedSessionIsStillRefusedDuringACallAndStillDucked() {
        var h = Harness()
        let ducker = h.add(SessionConfiguration(.playback, options: [.mixWithOthers, .duckOthers]))
        let music = h.add(SessionConfiguration(.playback))
        h.activate(ducker)
        h.activate(music, .alongsideOthers)
        XCTAssertEqual(h.snapshot(music)?.isDucked, true, "ducking applies")
        h.deactivate(music)

        let call = h.add(SessionConfiguration(.playAndRecord, mode: .voiceChat))
        h.activate(call)
        XCTAssertEqual(h.activate(music, .alongsideOthers).error, .insufficientPriority, "a call owns audio")
    }

    func testAlongsideOthersIsNotADeactivationOption() {
        var h = Harness()
        let id = h.add(SessionConfiguration(.playback))
        h.activate(id)
        XCTAssertEqual(h.engine.deactivate(id, options: .alongsideOthers).error,
                       .badParam(.optionNotValidHere(.alongsideOthers)))
        XCTAssertTrue(h.isActive(id))
    }
}
