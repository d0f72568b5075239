import XCTest
@testable import SessionCore

/// The seven app types of guidelines §5 (G-APP-*), each told as a story through its preset.
final class AppTypeTests: XCTestCase {
    func makeApp(_ system: AudioSystem, _ profile: AppProfile) throws -> TestApp {
        let session = try system.makeSession()
        return TestApp(session, try session.apply(profile))
    }

    func makeCaller(_ system: AudioSystem) throws -> AudioSession {
        let call = try system.makeSession()
        call.requestRecordPermission()
        try call.setCategory(.playAndRecord, mode: .voiceChat)
        return call
    }

    /// G-APP-GAME: always tries to reactivate and resume after *ended* — even when the interrupter
    /// did not notify — and ignores route changes.
    func testGameAlwaysResumesAndIgnoresRouteChanges() throws {
        let system = AudioSystem()
        system.connect([headphones])
        let game = try makeApp(system, .game(otherAudioIsPlaying: false))
        XCTAssertEqual(game.session.category, .soloAmbient)
        game.play()
        XCTAssertEqual(game.takeOutput(), [.startOutput])

        system.disconnect([headphones.id])
        game.handleEvents()
        XCTAssertEqual(game.controller.state, .playing, "route changes ignored")
        XCTAssertEqual(game.takeOutput(), [])

        let call = try makeCaller(system)
        try call.setActive(true)
        game.handleEvents()
        XCTAssertEqual(game.takeOutput(), [.pauseOutput, .showInterrupted, .setSecondaryAudioSilenced(true)])
        try call.setActive(false)  // no notify-others
        game.handleEvents()
        XCTAssertEqual(game.controller.state, .playing, "a game resumes without shouldResume")
        XCTAssertEqual(game.takeOutput(), [.startOutput, .setSecondaryAudioSilenced(false)])
        XCTAssertTrue(game.session.isActive)
    }

    /// G-APP-MEDIA: activates on the user's play, pauses on unplug keeping the session active,
    /// honours shouldResume and resumes only what was playing, holds remote commands.
    func testMediaPlayerPausesOnUnplugAndHonoursShouldResume() throws {
        let system = AudioSystem()
        system.connect([headphones])
        let player = try makeApp(system, .mediaPlayer())
        XCTAssertFalse(player.session.isActive, "waits for the user's play")
        player.play()
        XCTAssertEqual(player.takeOutput(), [.startOutput, .registerRemoteCommands])
        XCTAssertEqual(player.session.currentRoute.outputs.first?.type, .headphones)

        system.disconnect([headphones.id])
        player.handleEvents()
        XCTAssertEqual(player.controller.state, .paused, "G-HEADPHONES-OUT")
        XCTAssertEqual(player.takeOutput(), [.pauseOutput])
        XCTAssertTrue(player.session.isActive, "session stays active")

        system.connect([headphones])
        player.handleEvents()
        XCTAssertEqual(player.controller.state, .paused, "plugging in does not start playback")
        player.play()
        _ = player.takeOutput()

        // Another music app takes over: non-resumable.
        let rival = try system.makeSession()
        try rival.setCategory(.playback)
        try rival.setActive(true)
        try rival.setActive(false)
        player.handleEvents()
        XCTAssertEqual(player.controller.state, .paused, "no shouldResume: stays paused")
        XCTAssertEqual(player.takeOutput(), [.pauseOutput, .showInterrupted])

        // A resumable aside while playing: resumes.
        player.play()
        _ = player.takeOutput()
        try rival.setActive(true)
        try rival.setActive(false, options: .notifyOthersOnDeactivation)
        player.handleEvents()
        XCTAssertEqual(player.controller.state, .playing)
        XCTAssertEqual(player.takeOutput(), [.pauseOutput, .showInterrupted, .startOutput])

        // A resumable aside while paused: stays paused (never resume what was not playing).
        player.pause()
        try rival.setActive(true)
        try rival.setActive(false, options: .notifyOthersOnDeactivation)
        player.handleEvents()
        XCTAssertEqual(player.controller.state, .paused)
        XCTAssertTrue(player.controller.holdsRemoteCommands, "keeps remote commands while paused")
    }

    /// G-APP-VOIP: active only for a call and hangs up with notify-others; never reactivates after
    /// an interruption, and never after the built-in mic was muted (G-INT-MIC).
    func testVoIPNeverReactivatesByItselfAndHangsUpWithNotify() throws {
        let system = AudioSystem()
        let music = try makeApp(system, .mediaPlayer())
        music.play()
        let voip = try makeApp(system, .voip())
        XCTAssertTrue(voip.session.configuration.options.contains(.allowBluetooth))
        voip.play()  // answer
        XCTAssertTrue(voip.session.isActive)
        voip.stop()  // hang up
        music.handleEvents()
        XCTAssertEqual(music.controller.state, .playing, "hung up with notify-others: music resumes")

        // Another call puts this one on hold and ends with notify-others: wait for the user.
        voip.play()
        let second = try makeCaller(system)
        try second.setActive(true)
        try second.setActive(false, options: .notifyOthersOnDeactivation)
        voip.handleEvents()
        XCTAssertFalse(voip.session.isActive, "waits for the user even with shouldResume")
        XCTAssertEqual(voip.controller.state, .paused)
        voip.play()  // the user takes the call back
        XCTAssertTrue(voip.session.isActive)

        // The lid closes: the mic is muted, the call is cut and nothing restarts by itself.
        system.setBuiltInMicMuted(true)
        voip.handleEvents()
        XCTAssertEqual(voip.controller.state, .interrupted(wasPlaying: true, reason: .builtInMicMuted))
        system.setBuiltInMicMuted(false)
        voip.handleEvents()
        XCTAssertFalse(voip.session.isActive, "the microphone never switches back on by itself")
        XCTAssertEqual(voip.controller.state, .paused)
        music.handleEvents()
        XCTAssertEqual(music.controller.state, .paused, "the cut call released the music without shouldResume")
    }

    /// G-APP-METER: measurement mode, always reactivates after *ended*, ignores route changes.
    func testMeteringAlwaysReactivatesAndIgnoresRoutes() throws {
        let system = AudioSystem()
        system.connect([headphones, headsetMic])
        let meter = try makeApp(system, .metering)
        XCTAssertEqual(meter.session.configuration, SessionConfiguration(.playAndRecord, mode: .measurement))
        meter.play()
        XCTAssertTrue(meter.session.isActive)
        system.disconnect([headphones.id, headsetMic.id])
        meter.handleEvents()
        XCTAssertEqual(meter.controller.state, .playing)

        let call = try makeCaller(system)
        try call.setActive(true)
        try call.setActive(false)  // without notify
        meter.handleEvents()
        XCTAssertTrue(meter.session.isActive, "always reactivates")
        XCTAssertEqual(meter.controller.state, .playing)
    }

    /// G-APP-BROWSER: plays only on the user's tap, deactivates with notify when the clip ends,
    /// holds remote commands only while a clip plays, waits for the user after *ended*.
    func testBrowserClipDeactivatesWithNotifyAndWaitsForUser() throws {
        let system = AudioSystem()
        let music = try makeApp(system, .mediaPlayer())
        music.play()
        let browser = try makeApp(system, .browser)
        browser.play()
        XCTAssertEqual(browser.takeOutput(), [.startOutput, .registerRemoteCommands])
        music.handleEvents()
        XCTAssertEqual(music.controller.state, .interrupted(wasPlaying: true, reason: .default))

        browser.pause()  // the clip ends
        XCTAssertEqual(browser.takeOutput(), [.pauseOutput, .unregisterRemoteCommands])
        XCTAssertFalse(browser.session.isActive)
        music.handleEvents()
        XCTAssertEqual(music.controller.state, .playing, "deactivated with notify-others")

        browser.play()
        music.handleEvents()
        music.play()  // the user's music takes over, then hands back with notify
        try music.session.setActive(false, options: .notifyOthersOnDeactivation)
        browser.handleEvents()
        XCTAssertEqual(browser.controller.state, .paused, "waits for the user after ended")
        XCTAssertFalse(browser.session.isActive)
    }

    /// G-APP-NAV: activates only for a prompt, always deactivates after it, ignores interruptions.
    func testNavigationActivatesPerPromptAndIgnoresInterruptions() throws {
        let system = AudioSystem()
        let nav = try makeApp(system, .navigation)
        XCTAssertTrue(nav.session.configuration.options.contains(.duckOthers))
        XCTAssertTrue(nav.session.configuration.options.contains(.mixWithOthers))
        for _ in 0..<3 {
            XCTAssertFalse(nav.session.isActive)
            nav.play()
            XCTAssertTrue(nav.session.isActive)
            nav.pause()
        }
        nav.play()
        let call = try makeCaller(system)
        try call.setActive(true)
        try call.setActive(false, options: .notifyOthersOnDeactivation)
        nav.handleEvents()
        XCTAssertFalse(nav.session.isActive, "a cut prompt is not replayed")
        XCTAssertEqual(nav.controller.state, .paused)
    }

    /// G-APP-COOP: mixes with the user's music and never takes remote commands; without start/stop
    /// UI it follows the game rules (always resumes).
    func testCooperativeMusicMixesAndNeverTakesRemoteCommands() throws {
        let system = AudioSystem()
        let music = try makeApp(system, .mediaPlayer())
        music.play()
        let withUI = try makeApp(system, .cooperativeMusic(hasTransportControls: true))
        withUI.play()
        XCTAssertEqual(withUI.takeOutput(), [.startOutput], "no remote commands")
        XCTAssertTrue(music.session.isActive, "plays along")

        let noUI = try makeApp(system, .cooperativeMusic(hasTransportControls: false))
        noUI.play()
        let call = try makeCaller(system)
        try call.setActive(true)
        try call.setActive(false)  // no notify
        noUI.handleEvents()
        withUI.handleEvents()
        XCTAssertEqual(noUI.controller.state, .playing, "without UI: resumes like a game")
        XCTAssertEqual(withUI.controller.state, .paused, "with UI: honours shouldResume")
    }
}
