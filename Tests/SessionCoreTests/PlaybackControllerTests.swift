import XCTest
@testable import SessionCore

/// The playback rules as a pure state machine (G-INT-RESUME, G-INT-UI, G-INT-MIC,
/// G-HEADPHONES-*, G-ROUTE-PICK, G-RC-CONTEXT).
final class PlaybackControllerTests: XCTestCase {
    let withControls = AppProfile.mediaPlayer().rules
    let withoutControls = AppProfile.game(otherAudioIsPlaying: false).rules

    func route(_ reason: RouteChangeReason) -> SessionEvent {
        .routeChange(RouteChangeEvent(reason: reason, previousRoute: AudioRoute(outputs: [headphones]),
                                      currentRoute: AudioRoute(outputs: [.speaker])))
    }

    /// G-INT-RESUME: with controls resume only with shouldResume AND only if it was playing;
    /// without controls always. The full table.
    func testResumeTable() {
        let expectations: [(rules: String, wasPlaying: Bool, shouldResume: Bool, resumes: Bool)] = [
            ("controls", true, true, true), ("controls", true, false, false),
            ("controls", false, true, false), ("controls", false, false, false),
            ("none", true, true, true), ("none", true, false, true),
            ("none", false, true, false), ("none", false, false, false),
        ]
        for row in expectations {
            var c = PlaybackController(rules: row.rules == "controls" ? withControls : withoutControls)
            _ = c.play()
            if !row.wasPlaying { _ = c.pause() }
            XCTAssertEqual(c.handle(.interruption(.began(reason: .default))),
                           row.wasPlaying ? [.pauseOutput, .showInterrupted] : [.showInterrupted])
            let actions = c.handle(.interruption(.ended(options: row.shouldResume ? .shouldResume : [])))
            XCTAssertEqual(c.isPlaying, row.resumes, "\(row)")
            XCTAssertEqual(actions.contains(.startOutput), row.resumes, "\(row)")
            if row.rules == "none" { XCTAssertTrue(actions.contains(.activateSession), "always reactivates") }
        }
    }

    func testBeganNeverDeactivatesOrTearsDown() {
        var c = PlaybackController(rules: withControls)
        _ = c.play()
        let actions = c.handle(.interruption(.began(reason: .default)))
        XCTAssertFalse(actions.contains(.deactivateSession(notifyOthers: true)))
        XCTAssertFalse(actions.contains(.deactivateSession(notifyOthers: false)))
        XCTAssertTrue(actions.contains(.showInterrupted))
    }

    func testBuiltInMicMutedNeverReactivatesWhateverTheRules() {
        for rules in [withControls, withoutControls, AppProfile.metering.rules, AppProfile.voip().rules] {
            var c = PlaybackController(rules: rules)
            _ = c.play()
            _ = c.handle(.interruption(.began(reason: .builtInMicMuted)))
            let actions = c.handle(.interruption(.ended(options: .shouldResume)))
            XCTAssertEqual(actions, [])
            XCTAssertEqual(c.state, .paused)
        }
    }

    func testRouteRules() {
        for reason in RouteChangeReason.allCases {
            var c = PlaybackController(rules: withControls)
            _ = c.play()
            let actions = c.handle(route(reason))
            let pauses = reason == .oldDeviceUnavailable || reason == .noSuitableRouteForCategory
            XCTAssertEqual(actions, pauses ? [.pauseOutput] : [], "\(reason)")
            XCTAssertEqual(c.isPlaying, !pauses, "\(reason): G-HEADPHONES-IN / G-ROUTE-PICK keep playing")
            var game = PlaybackController(rules: withoutControls)
            _ = game.play()
            XCTAssertEqual(game.handle(route(reason)), [], "a game ignores route changes")
        }
    }

    func testUnplugDuringInterruptionCancelsTheResume() {
        var c = PlaybackController(rules: withControls)
        _ = c.play()
        _ = c.handle(.interruption(.began(reason: .default)))
        _ = c.handle(route(.oldDeviceUnavailable))
        XCTAssertEqual(c.handle(.interruption(.ended(options: .shouldResume))), [])
        XCTAssertFalse(c.isPlaying, "private listening is not shared")
    }

    func testPauseDuringInterruptionCancelsTheResume() {
        var c = PlaybackController(rules: withControls)
        _ = c.play()
        _ = c.handle(.interruption(.began(reason: .default)))
        _ = c.pause()
        XCTAssertEqual(c.handle(.interruption(.ended(options: .shouldResume))), [])
    }

    func testDelayedActivationFlow() {
        var c = PlaybackController(rules: withControls)
        _ = c.play()
        XCTAssertEqual(c.activationDelayed(), [.pauseOutput])
        XCTAssertEqual(c.state, .waitingForActivation)
        XCTAssertEqual(c.handle(.delayedActivation(.granted)), [.startOutput])
        XCTAssertTrue(c.isPlaying)
        var refused = PlaybackController(rules: withControls)
        _ = refused.play()
        _ = refused.activationDelayed()
        _ = refused.handle(.delayedActivation(.refused(.cannotStartPlaying)))
        XCTAssertEqual(refused.state, .paused)
    }

    func testActivationFailureReturnsToPaused() {
        var c = PlaybackController(rules: withControls)
        _ = c.play()
        XCTAssertEqual(c.activationFailed(.insufficientPriority), [.pauseOutput])
        XCTAssertEqual(c.state, .paused)
    }

    func testRemoteCommandContext() {
        var media = PlaybackController(rules: withControls)
        XCTAssertEqual(media.play(), [.activateSession, .startOutput, .registerRemoteCommands])
        XCTAssertEqual(media.pause(), [.pauseOutput])
        XCTAssertEqual(media.play(), [.activateSession, .startOutput], "registered once")
        XCTAssertEqual(media.stop(), [.pauseOutput, .deactivateSession(notifyOthers: true), .unregisterRemoteCommands])
        XCTAssertEqual(media.state, .idle)

        var browser = PlaybackController(rules: AppProfile.browser.rules)
        XCTAssertEqual(browser.play(), [.activateSession, .startOutput, .registerRemoteCommands])
        XCTAssertEqual(browser.pause(), [.pauseOutput, .deactivateSession(notifyOthers: true), .unregisterRemoteCommands])

        var coop = PlaybackController(rules: AppProfile.cooperativeMusic(hasTransportControls: true).rules)
        XCTAssertEqual(coop.play(), [.activateSession, .startOutput], "never remote commands")
    }

    func testDuckingSilentModeAndSecondaryAudioHint() {
        var media = PlaybackController(rules: withControls)
        var game = PlaybackController(rules: withoutControls)
        for event: SessionEvent in [.ducking(.began), .ducking(.ended)] {
            XCTAssertEqual(media.handle(event), [.setDucked(event == .ducking(.began))])
        }
        XCTAssertEqual(media.handle(.silentModeChanged(true)), [], "G-SILENT: media playback is not silenced")
        XCTAssertEqual(game.handle(.silentModeChanged(true)), [.setMuted(true)])
        XCTAssertEqual(game.handle(.silentModeChanged(false)), [.setMuted(false)])
        XCTAssertEqual(media.handle(.secondaryAudioHint(.begin)), [])
        XCTAssertEqual(game.handle(.secondaryAudioHint(.begin)), [.setSecondaryAudioSilenced(true)])
        XCTAssertEqual(game.handle(.secondaryAudioHint(.end)), [.setSecondaryAudioSilenced(false)])
        XCTAssertEqual(game.handle(.outputVolumeChanged(0.3)), [], "G-VOLUME: the app never touches it")
    }

    func testMediaServicesResetRebuilds() {
        var c = PlaybackController(rules: withoutControls)
        _ = c.play()
        XCTAssertEqual(c.handle(.mediaServicesLost), [.pauseOutput, .showInterrupted])
        XCTAssertEqual(c.handle(.mediaServicesReset), [.rebuildPlayers, .activateSession, .startOutput])
    }

    func testPresetsMatchTheGuidelinesTable() {
        XCTAssertEqual(AppProfile.game(otherAudioIsPlaying: true).configuration.category, .ambient)
        XCTAssertEqual(AppProfile.game(otherAudioIsPlaying: false).configuration.category, .soloAmbient)
        XCTAssertEqual(AppProfile.mediaPlayer().configuration, SessionConfiguration(.playback))
        XCTAssertEqual(AppProfile.mediaPlayer(records: true).configuration.category, .playAndRecord)
        XCTAssertTrue(AppProfile.voip().configuration.traits.isCall)
        XCTAssertTrue(AppProfile.voip(video: true).configuration.traits.isCall)
        XCTAssertEqual(AppProfile.metering.configuration.mode, .measurement)
        XCTAssertFalse(AppProfile.metering.configuration.traits.isMixable)
        XCTAssertEqual(AppProfile.browser.configuration, SessionConfiguration(.playback))
        XCTAssertTrue(AppProfile.navigation.configuration.traits.ducksOthers)
        XCTAssertTrue(AppProfile.navigation.configuration.traits.isMixable)
        XCTAssertTrue(AppProfile.cooperativeMusic(hasTransportControls: true).configuration.traits.isMixable)
        for profile in [AppProfile.game(otherAudioIsPlaying: true), .game(otherAudioIsPlaying: false), .mediaPlayer(),
                        .mediaPlayer(records: true), .voip(), .metering, .browser, .navigation,
                        .cooperativeMusic(hasTransportControls: true), .cooperativeMusic(hasTransportControls: false),
                        .uiSounds] {
            XCTAssertNoThrow(try profile.configuration.validated(), "\(profile.kind) is a valid configuration")
        }
    }
}
