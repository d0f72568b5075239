import DBus
import Foundation
import TestSupport
import XCTest

/// The guidelines' scenarios that involve more than one app, across processes: `mprisd play` as the
/// music app (it obeys the daemon), mpv with mpv-mpris as a player that never heard of mprisd, and
/// `mprisd run` standing in for the call, the navigation prompt and the game.
final class DaemonScenarioTests: DaemonTestCase {
    func testACallPausesTheMusicAndItResumesWhenTheCallEnds() async throws {
        try await startDaemon()
        let music = try await startPlay(name: "music")
        let call = try run(["--category", "playAndRecord", "--mode", "voiceChat", "--notify-others", "--", "sleep", "1.5"])
        try await waitUntil("the call pauses the music", timeout: .seconds(2)) {
            try await self.playerctl("-p", "music", "status") == "Paused"
        }
        XCTAssertTrue(call.isRunning, "paused during the call, not after it")
        let status = await call.waitForExit()
        XCTAssertEqual(status, 0, call.stderr)
        try await waitUntil("the music resumes after the call (notify-others)", timeout: .seconds(2)) {
            try await self.playerctl("-p", "music", "status") == "Playing"
        }
        XCTAssertTrue(music.isRunning)
    }

    func testANavigationPromptDucksTheMusicWhichKeepsPlaying() async throws {
        try await startDaemon()
        let music = try await startPlay(name: "music")
        let prompt = try run(["--category", "playback", "--mode", "voicePrompt", "--mix", "--duck", "--", "sleep", "1.5"])
        try await waitUntil("the music is ducked", timeout: .seconds(2)) {
            music.stderr.contains("ducked: another app speaks over the music")
        }
        let during = try await busStatus()
        XCTAssertEqual(during.session(named: "music")?.ducked, true, "\(during)")
        let playing = try await playerctl("-p", "music", "status")
        XCTAssertEqual(playing, "Playing", "a prompt ducks, it never pauses the music")
        _ = await prompt.waitForExit()
        try await waitUntil("full volume again after the prompt", timeout: .seconds(2)) {
            music.stderr.contains("no longer ducked")
        }
        let after = try await playerctl("-p", "music", "status")
        XCTAssertEqual(after, "Playing")
    }

    func testAGameStartedWhileMusicPlaysMixesAndASoloGameInterrupts() async throws {
        try await startDaemon()
        let mpv = try await startMPV()
        // G-SCN-GAME: a game that sees other audio playing chooses ambient and mixes with it.
        let ambientGame = try run(["--category", "ambient", "--", "sleep", "1"])
        try await waitForStatus("the ambient game is active") { $0.session(named: "sleep")?.active == true }
        try await assertStays(mpv, "Playing")
        _ = await ambientGame.waitForExit()
        // A game that insists on its own soundtrack (soloAmbient) interrupts the music.
        let soloGame = try run(["--category", "soloAmbient", "--", "sleep", "1"])
        let paused = await mpv.waitForStatus("Paused", timeout: .seconds(2))
        XCTAssertTrue(paused, "soloAmbient does not mix: \(daemon?.stderr ?? "")")
        _ = await soloGame.waitForExit()
    }

    func testTwoMusicAppsTheOneStartedLastWins() async throws {
        try await startDaemon()
        let music = try await startPlay(name: "music")
        let mpv = try await startMPV()
        try await waitUntil("the music app started first is paused", timeout: .seconds(2)) {
            try await self.playerctl("-p", "music", "status") == "Paused"
        }
        try await mpv.pause()
        try await assertPlayer("music", stays: "Paused")  // the user chose the other app: no resume when it stops
        XCTAssertTrue(music.isRunning)

        // And the other way round: playing mprisd play again pauses mpv.
        try await mpv.play()
        // mpv-mpris announces its status up to ~100 ms late; "last" is as the daemon saw it.
        try await waitForStatus("the daemon sees mpv playing again") { status in
            status.players.contains { $0.busName == mpv.busName && $0.status == "Playing" }
        }
        try await playerctl("-p", "music", "play")
        let mpvPaused = await mpv.waitForStatus("Paused", timeout: .seconds(2))
        XCTAssertTrue(mpvPaused, "mpv yields to the app the user just started: \(daemon?.stderr ?? "")\n\(music.stderr)")
    }
}
