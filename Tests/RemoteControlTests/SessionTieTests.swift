import DBus
import RemoteControl
import SessionCore
import TestSupport
import XCTest

/// Ties to SessionCore: a mixing session never takes remote control (G-APP-COOP); an interrupted
/// one keeps its name and shows Paused (G-INT-UI).
final class SessionTieTests: EndpointTestCase {
    func testMixableSessionNeverOwnsTheName() async throws {
        let system = AudioSystem()
        let session = try system.makeSession(SessionConfiguration(.playback, options: [.mixWithOthers]))
        let player = try makePlayer()
        player.endpoint.attach(session)
        player.start()
        var names = try await busNamesAfterRequests(of: player)
        XCTAssertFalse(names.contains { $0.hasPrefix("org.mpris.MediaPlayer2.") }, "\(names)")
        XCTAssertFalse(player.endpoint.isInAudioContext)

        // The same app with a non-mixing category takes it …
        try session.setCategory(.playback)
        player.endpoint.refresh()
        let acquired = try await waitForName(present: true)
        XCTAssertTrue(acquired)

        // … and gives it up (Stopped, then released) when it becomes a mixing one again.
        try session.setCategory(.ambient)
        player.endpoint.refresh()
        let released = try await waitForName(present: false)
        XCTAssertTrue(released)

        // The flag works the same without a session.
        player.endpoint.attach(nil)
        player.endpoint.setMixesWithOthers(true)
        names = try await busNamesAfterRequests(of: player)
        XCTAssertFalse(names.contains(Self.name))
        player.endpoint.setMixesWithOthers(false)
        let back = try await waitForName(present: true)
        XCTAssertTrue(back)
    }

    func testInterruptedAppKeepsTheNameAndShowsPaused() async throws {
        let player = try makePlayer()
        player.start()
        let acquired = try await waitForName(present: true)
        XCTAssertTrue(acquired)
        player.endpoint.update { $0.playbackState = .interrupted }
        try await expectPlayerctl("status", prints: "Paused")
        let names = try await busNames()
        XCTAssertTrue(names.contains(Self.name))
        // A headset's Play reaches the app (it can resume).
        try await playerctl("play")
        XCTAssertEqual(player.calls, [.play])
        try await expectPlayerctl("status", prints: "Playing")
    }

    func testInterruptedSessionShowsPausedWhileTheAppStillSaysPlaying() async throws {
        let system = AudioSystem()
        let music = try system.makeSession(SessionConfiguration(.playback))
        let call = try system.makeSession(SessionConfiguration(.playAndRecord, mode: .voiceChat))
        call.requestRecordPermission()
        let player = try makePlayer()
        player.endpoint.attach(music)
        try music.setActive(true)
        player.start()
        let acquired = try await waitForName(present: true)
        XCTAssertTrue(acquired)
        try call.setActive(true)  // a call interrupts the music session
        XCTAssertTrue(music.isInterrupted)
        try await expectPlayerctl("status", prints: "Paused")
        let names = try await busNames()
        XCTAssertTrue(names.contains(Self.name))
        try call.setActive(false, options: [.notifyOthersOnDeactivation])
        XCTAssertFalse(music.isInterrupted)
        try await expectPlayerctl("status", prints: "Playing")
    }
}
