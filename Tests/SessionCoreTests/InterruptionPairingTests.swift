import XCTest
@testable import SessionCore

/// Every *began* is paired with one *ended*, also when the interrupter vanishes or is itself
/// interrupted; the interrupter's notify decides shouldResume (G-INT-KINDS, G-INT-NOTIFY).
final class InterruptionPairingTests: XCTestCase {
    func testVanishingInterrupterEndsWithoutShouldResume() {
        var h = Harness()
        let music = h.add(SessionConfiguration(.playback))
        let rival = h.add(SessionConfiguration(.playback))
        h.activate(music)
        h.activate(rival)
        h.remove(rival)
        XCTAssertEqual(h.interruptions(music), [began, endedNoResume])
        XCTAssertNil(h.snapshot(rival))
    }

    func testVanishingDuckerUnducksAtOnce() {
        var h = Harness()
        let music = h.add(SessionConfiguration(.playback))
        let prompt = h.add(SessionConfiguration(.playback, options: .duckOthers))
        h.activate(music)
        h.activate(prompt)
        XCTAssertTrue(h.isDucked(music))
        h.remove(prompt)
        XCTAssertFalse(h.isDucked(music))
        XCTAssertEqual(h.take(music).filter { if case .ducking = $0 { true } else { false } },
                       [.ducking(.began), .ducking(.ended)])
    }

    func testInterruptionsStackLikeCallsOnHold() {
        var h = Harness()
        let music = h.add(SessionConfiguration(.playback))
        let first = h.add(SessionConfiguration(.playAndRecord, mode: .voiceChat))
        let second = h.add(SessionConfiguration(.playAndRecord, mode: .voiceChat))
        h.activate(music)
        h.activate(first)
        h.activate(second)  // the first call goes on hold
        XCTAssertEqual(h.snapshot(music)?.interruptedBy, .session(first), "still held by the first call")
        h.deactivate(second, notify: true)
        XCTAssertEqual(h.interruptions(first), [began, endedResume])
        XCTAssertEqual(h.interruptions(music), [began], "the music waits for the first call")
        h.activate(first)
        h.deactivate(first, notify: true)
        XCTAssertEqual(h.interruptions(music), [endedResume])
    }

    func testReleasedVictimMovesToWhateverStillBlocksIt() {
        var h = Harness()
        let music = h.add(SessionConfiguration(.playback))
        let a = h.add(SessionConfiguration(.playback))
        let b = h.add(SessionConfiguration(.playback))
        h.activate(music)
        h.activate(a)        // music held by a
        h.activate(b)        // a held by b
        h.deactivate(a, notify: true)  // a gives up while interrupted
        XCTAssertEqual(h.snapshot(music)?.interruptedBy, .session(b), "b would interrupt it: moves to b")
        XCTAssertEqual(h.interruptions(music), [began])
        h.deactivate(b, notify: false)
        XCTAssertEqual(h.interruptions(music), [endedNoResume], "b did not notify: no shouldResume")
    }

    func testLockedVictimWaitsForUnlock() {
        var h = Harness()
        let game = h.add(SessionConfiguration(.soloAmbient))
        let music = h.add(SessionConfiguration(.playback))
        h.activate(game)
        h.activate(music)
        h.lock(true)
        h.deactivate(music, notify: true)
        XCTAssertEqual(h.snapshot(game)?.interruptedBy, .suspended)
        XCTAssertEqual(h.interruptions(game), [began])
        h.lock(false)
        XCTAssertEqual(h.interruptions(game), [endedResume])
    }

    func testDuckingLastsExactlyAsLongAsTheDucker() {
        var h = Harness()
        let music = h.add(SessionConfiguration(.playback))
        let p1 = h.add(SessionConfiguration(.playback, options: .duckOthers))
        let p2 = h.add(SessionConfiguration(.ambient, options: .duckOthers))
        h.activate(music)
        h.activate(p1)
        h.activate(p2)
        XCTAssertTrue(h.isDucked(music))
        h.deactivate(p1)
        XCTAssertTrue(h.isDucked(music), "another ducker is still active")
        h.deactivate(p2)
        XCTAssertFalse(h.isDucked(music))
        let late = h.add(SessionConfiguration(.playback, options: .mixWithOthers))
        h.activate(p1)
        h.activate(late)
        XCTAssertTrue(h.isDucked(late), "sessions starting under a ducker are ducked too")
        XCTAssertEqual(h.take(music).filter { if case .ducking = $0 { true } else { false } },
                       [.ducking(.began), .ducking(.ended), .ducking(.began)])
    }

    func testSecondaryAudioHintFollowsThePrimarySession() {
        var h = Harness()
        let game = h.add(SessionConfiguration(.ambient))
        let music = h.add(SessionConfiguration(.playback))
        let other = h.add(SessionConfiguration(.playback))
        h.activate(game)
        XCTAssertFalse(h.engine.secondaryAudioShouldBeSilencedHint(for: game))
        XCTAssertFalse(h.engine.isOtherAudioPlaying(for: game))
        h.activate(music)
        XCTAssertTrue(h.engine.secondaryAudioShouldBeSilencedHint(for: game))
        XCTAssertFalse(h.engine.secondaryAudioShouldBeSilencedHint(for: music))
        XCTAssertTrue(h.engine.isOtherAudioPlaying(for: game))
        XCTAssertEqual(h.take(game).filter { if case .secondaryAudioHint = $0 { true } else { false } },
                       [.secondaryAudioHint(.begin)])
        XCTAssertFalse(h.take(music).contains(.secondaryAudioHint(.begin)))
        h.activate(other)  // the primary passes from music to other
        XCTAssertEqual(h.take(music).filter { if case .secondaryAudioHint = $0 { true } else { false } },
                       [.secondaryAudioHint(.begin)])
        XCTAssertEqual(h.take(other).filter { if case .secondaryAudioHint = $0 { true } else { false } },
                       [.secondaryAudioHint(.begin), .secondaryAudioHint(.end)])
        XCTAssertEqual(h.take(game), [], "still silenced: no event")
        h.deactivate(other)
        XCTAssertEqual(h.take(game).filter { if case .secondaryAudioHint = $0 { true } else { false } },
                       [.secondaryAudioHint(.end)])
        XCTAssertFalse(h.engine.secondaryAudioShouldBeSilencedHint(for: game))
    }

    func testSpokenAudioIsInterruptedNotDuckedAndResumes() {
        var h = Harness()
        let podcast = h.add(SessionConfiguration(.playback, mode: .spokenAudio))
        let nav = h.add(SessionConfiguration(.playback, mode: .voicePrompt,
                                             options: [.duckOthers, .interruptSpokenAudioAndMixWithOthers]))
        h.activate(podcast)
        h.activate(nav)
        XCTAssertFalse(h.isActive(podcast))
        XCTAssertFalse(h.isDucked(podcast))
        h.deactivate(nav, notify: true)
        XCTAssertEqual(h.interruptions(podcast), [began, endedResume])
    }
}
