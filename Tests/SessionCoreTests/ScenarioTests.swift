import XCTest
@testable import SessionCore

/// The five worked scenarios of guidelines §2 (G-SCN-*), each told as a story.
final class ScenarioTests: XCTestCase {
    func makeApp(_ system: AudioSystem, _ profile: AppProfile) throws -> TestApp {
        let session = try system.makeSession()
        return TestApp(session, try session.apply(profile))
    }

    /// G-SCN-LANG: the pronunciation the user asked for plays even silent and locked, and the
    /// user's music goes quiet for it, then comes back.
    func testLanguageLearningAppPlaysPronunciationsInSilentModeWhileLocked() throws {
        let system = AudioSystem()
        let music = try makeApp(system, .mediaPlayer())
        let language = try system.makeSession()
        try language.setCategory(.playback)

        music.play()
        XCTAssertTrue(music.session.isActive)
        system.setSilentMode(true)
        system.setLocked(true)

        XCTAssertEqual(try language.setActive(true), .active, "plays in silent mode and locked")
        XCTAssertFalse(language.isSilenced)
        XCTAssertFalse(music.session.isActive, "other audio goes quiet: non-mixing playback")
        music.handleEvents()
        XCTAssertEqual(music.controller.state, .interrupted(wasPlaying: true, reason: .default))

        try language.setActive(false, options: .notifyOthersOnDeactivation)
        music.handleEvents()
        XCTAssertEqual(music.controller.state, .playing, "the music resumes after the sample")
        XCTAssertTrue(music.session.isActive)
    }

    /// G-SCN-VOIP: a call arrives silent and locked, silences other audio, nothing non-mixing can
    /// start during it, and the session is active only during the call.
    func testVoIPCallArrivesLockedSilencesMusicAndHandsItBackWhenHungUp() throws {
        let system = AudioSystem()
        let music = try makeApp(system, .mediaPlayer())
        let voip = try makeApp(system, .voip())
        let other = try makeApp(system, .mediaPlayer())
        music.play()
        system.setSilentMode(true)
        system.setLocked(true)
        XCTAssertFalse(voip.session.isActive, "inactive until a call")

        voip.play()  // answer
        XCTAssertTrue(voip.session.isActive)
        XCTAssertEqual(voip.session.recordPermission, .granted, "asked for record permission itself")
        XCTAssertFalse(music.session.isActive, "other audio is silenced during a call")

        other.play()
        XCTAssertEqual(other.controller.state, .paused, "refused: a call owns audio")
        XCTAssertFalse(other.session.isActive)

        voip.stop()  // hang up: deactivate with notify-others
        XCTAssertFalse(voip.session.isActive, "active only during the call")
        music.handleEvents()
        XCTAssertEqual(music.controller.state, .playing)
        XCTAssertTrue(music.session.isActive)
    }

    /// G-SCN-GAME: at launch the game checks for other audio — ambient if the user's music plays
    /// (it goes on), soloAmbient otherwise — and never asks the user.
    func testGameChoosesAmbientWhenMusicPlaysAndSoloAmbientOtherwise() throws {
        let system = AudioSystem()
        let quiet = try system.makeSession()
        _ = try quiet.applyGameProfile()
        XCTAssertEqual(quiet.category, .soloAmbient, "nothing plays: soloAmbient")

        let music = try makeApp(system, .mediaPlayer())
        music.play()
        let game = try system.makeSession()
        var controller = try game.applyGameProfile()
        XCTAssertEqual(game.category, .ambient, "music plays: ambient")
        XCTAssertTrue(game.secondaryAudioShouldBeSilencedHint, "soundtrack off while the music plays")
        var output: [PlaybackAction] = []
        game.perform(controller.play(), with: &controller) { output.append($0) }
        XCTAssertTrue(game.isActive)
        XCTAssertTrue(music.session.isActive, "the user's music continues")
        XCTAssertEqual(output, [.startOutput])

        // The music stops: the soundtrack may play; it starts again: silence it.
        let recorder = EventRecorder(game)
        music.pause()
        try music.session.setActive(false)
        try music.session.setActive(true)
        output = []
        for event in recorder.take() { game.perform(controller.handle(event), with: &controller) { output.append($0) } }
        XCTAssertEqual(output, [.setSecondaryAudioSilenced(false), .setSecondaryAudioSilenced(true)])
    }

    /// G-SCN-NAV: prompts play in background, locked and silent, over the user's audio which ducks;
    /// a podcast pauses instead and resumes after the prompt.
    func testNavigationPromptDucksMusicAndPausesPodcastWhileLocked() throws {
        let system = AudioSystem()
        let music = try makeApp(system, .cooperativeMusic(hasTransportControls: true))
        let podcast = try system.makeSession()
        try podcast.setCategory(.playback, mode: .spokenAudio, options: .mixWithOthers)
        let podcastEvents = EventRecorder(podcast)
        let nav = try makeApp(system, .navigation)
        music.play()
        try podcast.setActive(true)
        system.setLocked(true)
        system.setSilentMode(true)

        nav.play()  // a prompt
        XCTAssertTrue(nav.session.isActive)
        XCTAssertTrue(music.session.isActive && music.session.isDucked, "music keeps playing, quieter")
        XCTAssertFalse(podcast.isActive, "spoken audio is paused, not talked over")
        XCTAssertEqual(podcastEvents.interruptions(), [began])

        nav.pause()  // prompt done: deactivate with notify-others
        XCTAssertFalse(nav.session.isActive)
        XCTAssertFalse(music.session.isDucked)
        XCTAssertEqual(podcastEvents.interruptions(), [endedResume])
    }

    /// G-SCN-BLOG: non-essential UI sounds obey silent mode and lock and never stop the user's music.
    func testBloggingAppUISoundsObeySilentModeAndLock() throws {
        let system = AudioSystem()
        let music = try makeApp(system, .mediaPlayer())
        music.play()
        let sounds = try makeApp(system, .uiSounds)

        sounds.play()  // launch sound
        XCTAssertTrue(sounds.session.isActive)
        XCTAssertTrue(music.session.isActive, "a UI sound never stops the music")
        sounds.pause()
        XCTAssertFalse(sounds.session.isActive, "deactivated after the sound")

        system.setSilentMode(true)
        XCTAssertTrue(sounds.session.isSilenced, "silent mode silences UI sounds")
        XCTAssertFalse(music.session.isSilenced)

        system.setLocked(true)
        XCTAssertThrowsError(try sounds.session.setActive(true)) { error in
            XCTAssertEqual(error as? SessionError, .cannotStartPlaying)
        }
    }
}
