@testable import AudioPolicyClient
@testable import AudioPolicyDaemon
import DBus
import SessionCore
import XCTest

/// The decisions of `ForeignPlayer` in the cases a real player can hardly be made to produce on
/// cue (signal order, user actions in the middle of a policy action).
final class ForeignPlayerRulesTests: XCTestCase {
    private func playing(volume: Double = 0.8) -> ForeignPlayer {
        var player = ForeignPlayer(busName: "org.mpris.MediaPlayer2.test", owner: ":1.9", token: 1)
        let actions = player.load(MPRISPlayerProperties(playbackStatus: "Playing", canPause: true, canPlay: true,
                                                        volume: volume))
        XCTAssertEqual(actions, [.activate])
        return player
    }

    func testSignalsBeforeTheFirstReadAreIgnored() {
        var player = ForeignPlayer(busName: "org.mpris.MediaPlayer2.test", owner: ":1.9", token: 1)
        XCTAssertEqual(player.update(MPRISPlayerProperties(playbackStatus: "Playing")), [])
        XCTAssertEqual(player.load(MPRISPlayerProperties(playbackStatus: "Paused")), [])
    }

    func testOnlyStatusChangesActivateOrDeactivate() {
        var player = playing()
        XCTAssertEqual(player.update(MPRISPlayerProperties(playbackStatus: "Playing")), [])
        XCTAssertEqual(player.update(MPRISPlayerProperties(volume: 0.5)), [])
        XCTAssertEqual(player.update(MPRISPlayerProperties(playbackStatus: "Stopped")), [.deactivate])
        XCTAssertEqual(player.update(MPRISPlayerProperties(playbackStatus: "Paused")), [])
        XCTAssertEqual(player.update(MPRISPlayerProperties(playbackStatus: "Playing")), [.activate])
    }

    func testInterruptionPausesAndResumesOnlyWhatThePolicyPaused() {
        var player = playing()
        XCTAssertEqual(player.handle(.interruption(.began(reason: .default)), cause: "session 2"),
                       [.send(.pause, reason: "interrupted by session 2")])
        XCTAssertTrue(player.pausedByPolicy)
        XCTAssertEqual(player.update(MPRISPlayerProperties(playbackStatus: "Paused")), [.deactivate])
        XCTAssertEqual(player.handle(.interruption(.ended(options: .shouldResume)), cause: ""),
                       [.send(.play, reason: "interruption ended")])
        XCTAssertFalse(player.pausedByPolicy)
        // Nothing left to resume a second time.
        XCTAssertEqual(player.handle(.interruption(.ended(options: .shouldResume)), cause: ""), [])
    }

    /// The journal could not write the pause or the duck down (issue 24): neither is made, and
    /// the player is as if neither had been decided — the end of the interruption resumes
    /// nothing, the end of the ducking restores nothing, and the next ducking tries again.
    func testAChangeTheJournalRefusedIsForgotten() {
        var player = playing()
        XCTAssertEqual(player.handle(.interruption(.began(reason: .default)), cause: "session 2", pauseEntry: .pause(cause: ":1.4")),
                       [.journal(.pause(cause: ":1.4")), .send(.pause, reason: "interrupted by session 2")])
        XCTAssertEqual(player.journalRefused(.pause(cause: ":1.4"), because: "full").count, 1)
        XCTAssertFalse(player.pausedByPolicy)
        XCTAssertEqual(player.handle(.interruption(.ended(options: .shouldResume)), cause: ""), [])

        XCTAssertEqual(player.handle(.ducking(.began), cause: "session 3"), [.readVolume])
        XCTAssertEqual(player.volumeRead(0.8).first, .journal(.volume(found: 0.8, set: 0.8 * 0.3)))
        let refused = player.journalRefused(.volume(found: 0.8, set: 0.8 * 0.3), because: "full")
        XCTAssertEqual(refused, [.log("org.mpris.MediaPlayer2.test not ducked: the journal of changes cannot be written (full), "
                                      + "and a change nobody could undo after a crash is not made")])
        XCTAssertNil(player.duck)
        XCTAssertEqual(player.handle(.ducking(.ended), cause: ""), [])
        XCTAssertEqual(player.handle(.ducking(.began), cause: "session 3"), [.readVolume], "the next ducking tries again")
    }

    /// Asked afresh before the Pause, the player said it is not playing (another actor paused it
    /// a moment ago, or its signals were a batch behind): no Pause went out, so nothing of the
    /// pause is ours — the end of the interruption resumes nothing and the journal keeps nothing.
    /// A call app reopening its microphone (issue 24): our resume crosses the next call's start.
    /// The Playing it brings activates after calls only; queued, the player is paused by the
    /// policy (journaled) and played again when the engine grants the activation.
    func testAResumeThatCrossesANewCallWaitsForThatCallsEnd() {
        var player = playing()
        _ = player.handle(.interruption(.began(reason: .default)), cause: "call")
        XCTAssertEqual(player.update(MPRISPlayerProperties(playbackStatus: "Paused")), [.deactivate])
        XCTAssertEqual(player.handle(.interruption(.ended(options: .shouldResume)), cause: ""),
                       [.send(.play, reason: "interruption ended")])
        XCTAssertEqual(player.update(MPRISPlayerProperties(playbackStatus: "Playing")), [.activateResumed])
        XCTAssertEqual(player.activationDelayed(),
                       [.journal(.pause(cause: nil)), .send(.pause, reason: "a call began as it resumed; it resumes when the call ends")])
        XCTAssertTrue(player.pausedByPolicy)
        XCTAssertEqual(player.update(MPRISPlayerProperties(playbackStatus: "Paused")), [.deactivate],
                       "the tracker leaves a queued session be: it is not active")
        XCTAssertEqual(player.handle(.delayedActivation(.granted), cause: ""),
                       [.send(.play, reason: "the call ended"), .unjournal(.pause)])
        XCTAssertFalse(player.pausedByPolicy)
        XCTAssertEqual(player.update(MPRISPlayerProperties(playbackStatus: "Playing")), [.activate],
                       "a Play after the grant is no resume: nothing waits again")
    }

    func testAQueuedResumeThatIsRefusedLeavesThePlayerPausedAndItsSessionInactive() {
        var player = playing()
        _ = player.handle(.interruption(.began(reason: .default)), cause: "call")
        _ = player.update(MPRISPlayerProperties(playbackStatus: "Paused"))
        _ = player.handle(.interruption(.ended(options: .shouldResume)), cause: "")
        _ = player.update(MPRISPlayerProperties(playbackStatus: "Playing"))
        _ = player.activationDelayed()
        _ = player.update(MPRISPlayerProperties(playbackStatus: "Paused"))
        XCTAssertEqual(player.handle(.delayedActivation(.refused(.insufficientPriority)), cause: ""),
                       [.unjournal(.pause), .deactivate,
                        .log("org.mpris.MediaPlayer2.test stays paused: its activation after the call was refused")])
        XCTAssertEqual(player.handle(.delayedActivation(.granted), cause: ""), [], "only the queued one is answered")
    }

    func testTheUsersOwnPlayIsNoResume() {
        var player = playing()
        _ = player.update(MPRISPlayerProperties(playbackStatus: "Paused"))
        XCTAssertEqual(player.update(MPRISPlayerProperties(playbackStatus: "Playing")), [.activate])
        XCTAssertFalse(player.takeResume())
    }

    func testAPauseNotSentBecauseThePlayerWasNotPlayingIsNeverResumed() {
        var player = playing()
        XCTAssertEqual(player.handle(.interruption(.began(reason: .default)), cause: "session 2",
                                     pauseEntry: .pause(cause: ":1.5")),
                       [.journal(.pause(cause: ":1.5")), .send(.pause, reason: "interrupted by session 2")])
        XCTAssertEqual(player.pauseNotNeeded(status: "Paused"), [.unjournal(.pause), .deactivate])
        XCTAssertFalse(player.pausedByPolicy)
        XCTAssertEqual(player.statusText, "Paused")
        XCTAssertEqual(player.handle(.interruption(.ended(options: .shouldResume)), cause: ""), [],
                       "a pause another actor made is not ours to resume")
    }

    func testUserPlayingDuringTheInterruptionCancelsTheResume() {
        var player = playing()
        _ = player.handle(.interruption(.began(reason: .default)), cause: "session 2")
        _ = player.update(MPRISPlayerProperties(playbackStatus: "Paused"))
        XCTAssertEqual(player.update(MPRISPlayerProperties(playbackStatus: "Playing")), [.activate])
        XCTAssertFalse(player.pausedByPolicy)
    }

    /// Our Pause and the user's Play folded into no announced change (mpv-mpris batches): the
    /// cached status still says Playing although the session is inactive. The end of the
    /// interruption reads the status afresh; found playing, the session is activated — even
    /// though the cached status did not change.
    func testInterruptionEndedWithoutResumeReadsTheStatusAfresh() {
        var player = playing()
        _ = player.handle(.interruption(.began(reason: .default)), cause: "session 2")
        let ended = player.handle(.interruption(.ended(options: [])), cause: "")
        XCTAssertEqual(ended, [.log("\(player.busName) stays paused: interruption ended without resume"), .readStatus])
        XCTAssertFalse(player.pausedByPolicy)
        XCTAssertEqual(player.statusRead("Playing"), [.activate])
        // Found paused: cached as such, so the user's Play later is a change that activates.
        var paused = playing()
        _ = paused.handle(.interruption(.began(reason: .default)), cause: "session 2")
        _ = paused.handle(.interruption(.ended(options: [])), cause: "")
        XCTAssertEqual(paused.statusRead("Paused"), [.deactivate])
        XCTAssertEqual(paused.update(MPRISPlayerProperties(playbackStatus: "Playing")), [.activate])
        // A read that failed changes nothing.
        XCTAssertEqual(paused.statusRead(nil), [])
    }

    func testRefusedActivationPausesAndKeepsTheResumeWhileStillInterrupted() {
        var player = playing()
        _ = player.handle(.interruption(.began(reason: .default)), cause: "session 2")
        _ = player.update(MPRISPlayerProperties(playbackStatus: "Paused"))
        _ = player.update(MPRISPlayerProperties(playbackStatus: "Playing"))  // the user, during a call
        let actions = player.activationRefused(.insufficientPriority, stillInterrupted: true)
        XCTAssertEqual(actions.count, 1)
        guard case .send(.pause, _)? = actions.first else { return XCTFail("\(actions)") }
        XCTAssertTrue(player.pausedByPolicy)
    }

    func testPlayerThatCannotPauseIsOnlyLogged() {
        var player = playing()
        _ = player.update(MPRISPlayerProperties(canPause: false))
        let actions = player.handle(.interruption(.began(reason: .default)), cause: "session 2")
        guard case .log? = actions.first, actions.count == 1 else { return XCTFail("\(actions)") }
        XCTAssertFalse(player.pausedByPolicy)
    }

    func testDuckingRestoresTheExactPriorVolume() {
        var player = playing(volume: 0.5)
        XCTAssertEqual(player.handle(.ducking(.began), cause: ""), [.readVolume], "the volume is read fresh first")
        // The player answers with a value it had not announced yet: that one is saved.
        XCTAssertEqual(player.volumeRead(0.73),
                       [.journal(.volume(found: 0.73, set: 0.73 * ForeignPlayer.duckFactor)),
                        .send(.setVolume(0.73 * ForeignPlayer.duckFactor), reason: "ducked (was 0.73)"),
                        .readBackVolume])
        _ = player.update(MPRISPlayerProperties(volume: 0.73 * ForeignPlayer.duckFactor))  // our own Set, echoed
        XCTAssertEqual(player.handle(.ducking(.ended), cause: ""),
                       [.send(.setVolume(0.73), reason: "ducking ended"), .unjournal(.volume)])
        XCTAssertNil(player.duck)
    }

    func testVolumeTheUserChoseWhileDuckedIsKept() {
        var player = playing(volume: 0.73)
        _ = player.handle(.ducking(.began), cause: "")
        _ = player.volumeRead(nil)  // no answer: the announced value counts
        XCTAssertEqual(player.duck?.found, 0.73)
        _ = player.update(MPRISPlayerProperties(volume: 0.5))  // the user
        let actions = player.handle(.ducking(.ended), cause: "")
        guard actions.first == .unjournal(.volume), case .log? = actions.last, actions.count == 2 else {
            return XCTFail("\(actions)")
        }
    }

    func testDuckingThatEndsBeforeTheReadLowersNothing() {
        var player = playing(volume: 0.73)
        XCTAssertEqual(player.handle(.ducking(.began), cause: ""), [.readVolume])
        XCTAssertEqual(player.handle(.ducking(.ended), cause: ""), [])
        XCTAssertEqual(player.volumeRead(0.73), [], "a late answer does not duck any more")
        XCTAssertNil(player.duck)
    }

    func testPlayerWithoutVolumeIsDuckedThroughItsStreams() {
        var player = ForeignPlayer(busName: "org.mpris.MediaPlayer2.firefox", owner: ":1.9", token: 1)
        _ = player.load(MPRISPlayerProperties(playbackStatus: "Playing"))
        let actions = player.handle(.ducking(.began), cause: "")
        guard case .log? = actions.first, actions.last == .duckStreams, actions.count == 2 else { return XCTFail("\(actions)") }
        XCTAssertTrue(player.duckByStream)
        XCTAssertEqual(player.handle(.ducking(.ended), cause: ""), [], "the stream policy follows its session")
        XCTAssertEqual(player.handle(.ducking(.began), cause: ""), [], "handed over once, for good")
    }

    func testAReadOnlyVolumeHandsTheDuckToTheStreams() {
        var player = playing(volume: 0.5)
        _ = player.handle(.ducking(.began), cause: "")
        _ = player.volumeRead(0.5)
        let actions = player.volumeSetFailed("org.freedesktop.DBus.Error.PropertyReadOnly")
        XCTAssertEqual(actions.first, .unjournal(.volume), "nothing was lowered")
        XCTAssertEqual(actions.last, .duckStreams)
        XCTAssertNil(player.duck)
        XCTAssertEqual(player.handle(.ducking(.ended), cause: ""), [], "no Volume to restore")
    }

    func testAnIgnoredVolumeHandsTheDuckToTheStreams() {
        var player = playing(volume: 0.5)
        _ = player.handle(.ducking(.began), cause: "")
        _ = player.volumeRead(0.5)
        XCTAssertEqual(player.volumeReadBack(0.5 * ForeignPlayer.duckFactor), [], "an honest player")
        XCTAssertNotNil(player.duck)
        let actions = player.volumeReadBack(0.5)
        XCTAssertEqual(actions.first, .unjournal(.volume))
        XCTAssertEqual(actions.last, .duckStreams)
        XCTAssertNil(player.duck)
    }

    func testMalformedPropertiesAreIgnored() {
        let body: [DBusValue] = [.string("org.mpris.MediaPlayer2.Player"),
                                 .dictionary(key: .string, value: .variant, [
                                     DictionaryEntry(.string("PlaybackStatus"), .variant(.int32(1))),
                                     DictionaryEntry(.string("Volume"), .variant(.double(.nan))),
                                     DictionaryEntry(.string("CanPause"), .variant(.boolean(false))),
                                 ])]
        let change = MPRISPlayerProperties(propertiesChanged: body)
        XCTAssertEqual(change, MPRISPlayerProperties(canPause: false))
        XCTAssertNil(MPRISPlayerProperties(propertiesChanged: [.string("org.example.Other"), body[1]]))
        XCTAssertNil(MPRISPlayerProperties(propertiesChanged: []))
    }
}
