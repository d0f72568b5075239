import XCTest
import SessionCore

/// The two examples of docs/library-api.md, "The audio session (SessionCore)" (G-APP-GAME,
/// G-APP-VOIP), compiled and run here so they stay true.
final class ReadmeExampleTests: XCTestCase {
    /// Stands in for the app's own audio output.
    final class Player {
        var log: [PlaybackAction] = []
        func apply(_ action: PlaybackAction) { log.append(action) }
    }

    func testGameExample() async throws {
        let system = AudioSystem()
        let soundtrack = Player()

        // --- docs/library-api.md: game (G-APP-GAME) ---
        let session = try system.makeSession()
        var audio = try session.applyGameProfile()     // G-SCN-GAME: ambient if other audio plays, else soloAmbient
        let stream = session.events                     // subscribe before playing
        session.perform(audio.play(), with: &audio, output: soundtrack.apply)  // .startOutput
        // --- a call interrupts and hangs up without notify-others ---
        let call = try system.makeSession()
        call.requestRecordPermission()
        try call.setCategory(.playAndRecord, mode: .voiceChat)
        try call.setActive(true)
        try call.setActive(false)
        for await event in stream {                     // G-APP-GAME: resume after every *ended*
            session.perform(audio.handle(event), with: &audio, output: soundtrack.apply)
            if case .interruption(.ended) = event { break }  // (the test stops here; an app keeps looping)
        }
        // --- end of docs/library-api.md ---
        XCTAssertEqual(session.category, .soloAmbient)
        XCTAssertTrue(session.isActive, "the game came back by itself")
        XCTAssertEqual(soundtrack.log, [.startOutput, .pauseOutput, .showInterrupted,
                                        .setSecondaryAudioSilenced(true), .startOutput])
    }

    func testVoIPExample() async throws {
        let system = AudioSystem()
        let music = try system.makeSession(SessionConfiguration(.playback))
        let musicEvents = music.interruptions
        try music.setActive(true)
        let phone = Player()

        // --- docs/library-api.md: VoIP call (G-APP-VOIP) ---
        let session = try system.makeSession()
        var call = try session.apply(.voip())           // playAndRecord + voiceChat = a call (G-CALLS); asks to record
        func answer() { session.perform(call.play(), with: &call, output: phone.apply) }  // interrupts other audio
        func hangUp() { session.perform(call.stop(), with: &call, output: phone.apply) }  // deactivates, notify-others
        answer()
        XCTAssertTrue(session.isActive)
        XCTAssertFalse(music.isActive, "other audio is silenced during the call")
        hangUp()
        // --- end of docs/library-api.md ---
        var iterator = musicEvents.makeAsyncIterator()
        let first = await iterator.next()
        let second = await iterator.next()
        XCTAssertEqual(first, .began(reason: .default))
        XCTAssertEqual(second, .ended(options: .shouldResume), "the music may resume")
        XCTAssertFalse(session.isActive)
        XCTAssertEqual(phone.log, [.startOutput, .pauseOutput])
    }
}
