import DBus
import Foundation
import TestSupport
import XCTest

/// The user's volume and playing state outlive the daemon: a daemon killed (SIGKILL) or stopped
/// (SIGTERM) while it ducks or pauses a real mpv gives both back — by its journal guard when no
/// daemon follows, by the next daemon when one does — and never takes a ducked volume for the
/// user's. A (re)starting daemon leaves the players it finds playing as the user chose them.
final class DaemonJournalTests: DaemonTestCase {
    private var journalPath: String { userDirectories["XDG_STATE_HOME", default: ""] + "/mprisd/journal" }

    /// A ducker (`mprisd run --mix --duck`) lowering mpv from `volume`; returns the ducked value.
    private func duck(_ mpv: MPVPlayer, from volume: Double) async throws -> (BackgroundProgram, Double) {
        let ducker = try run(["--category", "playback", "--mix", "--duck", "--name", "ducker", "--", "sleep", "60"])
        let ducked = await eventually(timeout: .seconds(3)) { ((try? await mpv.volume()) ?? volume) < volume - 0.05 }
        XCTAssertTrue(ducked, "mpv ducked: \(daemon?.stderr ?? "")")
        let value = try await mpv.volume()
        XCTAssertEqual(value, volume * 0.3, accuracy: 0.002)
        return (ducker, value)
    }

    /// Waits until the policy name is free again. Not `waitForExit`: the killed daemon's journal
    /// guard keeps its standard error open while it waits for a cause to go.
    private func killedDaemonIsGone() async throws {
        try await waitUntil("the killed daemon's name is gone") { try await self.policyOwner() == nil }
    }

    private func call() throws -> BackgroundProgram {
        try run(["--category", "playAndRecord", "--mode", "voiceChat", "--name", "call", "--", "sleep", "60"])
    }

    /// A daemon, mpv playing, and a call that paused it.
    private func mpvPausedByACall() async throws -> (daemon: BackgroundProgram, mpv: MPVPlayer, caller: BackgroundProgram) {
        let daemon = try await startDaemon()
        let mpv = try await startMPV()
        let caller = try call()
        let paused = await mpv.waitForStatus("Paused", timeout: .seconds(3))
        XCTAssertTrue(paused, "the call pauses mpv")
        return (daemon, mpv, caller)
    }

    private func waitForVolume(_ mpv: MPVPlayer, _ volume: Double, _ what: String, timeout: Duration = .seconds(5)) async {
        let back = await eventually(timeout: timeout) { abs(((try? await mpv.volume()) ?? -1) - volume) < 0.002 }
        let now = (try? await mpv.volume()) ?? -1
        XCTAssertTrue(back, "\(what): mpv's volume is \(now), not \(volume)\ndaemon: \(daemon?.stderr ?? "")")
    }

    // MARK: Killed while ducking

    func testADaemonKilledWhileDuckingGivesTheVolumeBackWithoutARestart() async throws {
        let first = try await startDaemon()
        let mpv = try await startMPV()
        let user = try await setVolumeAnnounced(mpv, 0.8)
        let (ducker, _) = try await duck(mpv, from: user)
        XCTAssertTrue(FileManager.default.fileExists(atPath: journalPath), "the ducking is in the journal")
        first.signal(SIGKILL)
        await waitForVolume(mpv, user, "the journal guard restores the user's volume")
        XCTAssertFalse(FileManager.default.fileExists(atPath: journalPath), "the journal is empty once undone")
        ducker.kill()
    }

    func testARestartedDaemonWithTheDuckerBackDucksTheUsersVolumeNotTheDuckedOne() async throws {
        let first = try await startDaemon()
        let mpv = try await startMPV()
        let user = try await setVolumeAnnounced(mpv, 0.8)
        let (ducker, ducked) = try await duck(mpv, from: user)
        first.signal(SIGKILL)
        try await killedDaemonIsGone()
        try await startDaemon()
        // The ducker re-registers and ducks again: from the user's 0.8, never from 0.24.
        try await waitForStatus("the ducker is back and mpv tracked") { status in
            status.session(named: "ducker")?.active == true && status.player(mpv.busName) != nil
        }
        await waitForVolume(mpv, ducked, "ducked once, from the user's volume")
        var during = ducked
        let once = try await holds(for: .milliseconds(300)) {
            during = try await mpv.volume()
            return abs(during - ducked) < 0.002
        }
        XCTAssertTrue(once, "not ducked twice (0.8 × 0.3 × 0.3): \(during)")
        ducker.kill()
        await waitForVolume(mpv, user, "the user's volume comes back when the ducker goes")
    }

    // MARK: Killed or stopped in the middle of a call

    func testADaemonKilledMidCallResumesTheMusicWhenTheCallEndsWithoutARestart() async throws {
        let (first, mpv, caller) = try await mpvPausedByACall()
        first.signal(SIGKILL)
        // The call goes on: the music stays paused…
        try await assertStays(mpv, "Paused", for: .milliseconds(800))
        // …until the caller is gone.
        caller.kill()
        let resumed = await mpv.waitForStatus("Playing", timeout: .seconds(5))
        XCTAssertTrue(resumed, "the journal guard resumes mpv once the call is over")
        let gone = await eventually(timeout: .seconds(3)) { !FileManager.default.fileExists(atPath: self.journalPath) }
        XCTAssertTrue(gone, "the journal is empty once undone")
    }

    func testARestartedDaemonResumesTheMusicItsPredecessorPausedWhenTheCallEnds() async throws {
        let (first, mpv, caller) = try await mpvPausedByACall()
        first.signal(SIGKILL)
        try await killedDaemonIsGone()
        try await startDaemon()
        try await waitForStatus("the call is back") { $0.session(named: "call")?.active == true }
        try await assertStays(mpv, "Paused", for: .milliseconds(500))
        caller.kill()
        let resumed = await mpv.waitForStatus("Playing", timeout: .seconds(5))
        XCTAssertTrue(resumed, "the new daemon resumes mpv once the call is over: \(daemon?.stderr ?? "")")
        await waitForDaemonLog("journal: resumed \(mpv.busName)")
    }

    func testACleanStopMidCallAndMidDuckUndoesEverything() async throws {
        let first = try await startDaemon()
        let mpv = try await startMPV()
        let user = try await setVolumeAnnounced(mpv, 0.8)
        let (ducker, _) = try await duck(mpv, from: user)
        first.signal(SIGTERM)
        let status = await first.waitForExit()
        XCTAssertEqual(status, 0, first.stderr)
        await waitForVolume(mpv, user, "a clean stop restores the volume")
        ducker.kill()

        let second = try await startDaemon()
        try await waitForStatus("mpv playing") { $0.player(mpv.busName)?.status == "Playing" }
        let caller = try call()
        let paused = await mpv.waitForStatus("Paused", timeout: .seconds(3))
        XCTAssertTrue(paused, "the call pauses mpv")
        second.signal(SIGTERM)
        let resumed = await mpv.waitForStatus("Playing", timeout: .seconds(3))
        XCTAssertTrue(resumed, "a clean stop resumes the music it paused: \(second.stderr)")
        let exit = await second.waitForExit()
        XCTAssertEqual(exit, 0, second.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: journalPath), "nothing left in the journal")
        caller.kill()
    }

    // MARK: Players already playing

    func testAStartingDaemonLeavesThePlayersItFindsPlaying() async throws {
        try XCTSkipUnless(MPVPlayer.isAvailable, "mpv and mpv-mpris are not installed")
        let tone = path("tone.wav")
        try WAVFile.writeCountingTone(seconds: 1, to: tone)
        let one = try await MPVPlayer.start(bus: bus, file: tone)
        let two = try await MPVPlayer.start(bus: bus, file: tone)
        defer { one.kill(); two.kill() }
        try await startDaemon()
        try await waitForStatus("both tracked, playing") { status in
            status.player(one.busName)?.status == "Playing" && status.player(two.busName)?.status == "Playing"
        }
        try await assertStays(one, "Playing", for: .milliseconds(600))
        try await assertStays(two, "Playing", for: .milliseconds(100))
        // From its next start on, a player is an ordinary one again: the newest wins.
        try await two.pause()
        try await waitForStatus("two paused") { $0.player(two.busName)?.status == "Paused" }
        try await two.play()
        let interrupted = await one.waitForStatus("Paused", timeout: .seconds(3))
        XCTAssertTrue(interrupted, "a player started anew interrupts the other: \(daemon?.stderr ?? "")")
    }

    func testARestartedDaemonLeavesAClientAndAPlayerThatBothPlayedMeanwhilePlaying() async throws {
        try XCTSkipUnless(MPVPlayer.isAvailable, "mpv and mpv-mpris are not installed")
        let first = try await startDaemon()
        _ = try await startPlay(name: "music", seconds: 30)
        first.signal(SIGKILL)
        try await killedDaemonIsGone()
        // Without a daemon nothing arbitrates: the user starts mpv beside the music.
        let tone = path("tone.wav")
        try WAVFile.writeCountingTone(seconds: 1, to: tone)
        let mpv = try await MPVPlayer.start(bus: bus, file: tone)
        defer { mpv.kill() }
        try await startDaemon()
        try await waitForStatus("the client is back and mpv is tracked") { status in
            status.session(named: "music")?.active == true && status.player(mpv.busName)?.status == "Playing"
        }
        try await assertStays(mpv, "Playing", for: .milliseconds(600))
        let music = try await playerctl("-p", "music", "status")
        XCTAssertEqual(music, "Playing", "the client that came back interrupts nothing and is not interrupted")
    }

    // MARK: Two session buses, one state directory

    /// Issue 24: the daemon of a second session bus with the same `XDG_STATE_HOME` owned the name
    /// and then waited in `flock` without a word. Now it says why in one line and exits before it
    /// takes the name; the first daemon's journal and duck are untouched; `mprisd status` on the
    /// second bus names the first; once the first is stopped, the second bus's daemon starts.
    func testTheDaemonOfASecondBusSharingTheStateDirectoryRefusesBeforeTakingTheName() async throws {
        let first = try await startDaemon()
        let mpv = try await startMPV()
        let user = try await setVolumeAnnounced(mpv, 0.8)
        let (ducker, ducked) = try await duck(mpv, from: user)
        let journal = try String(contentsOfFile: journalPath, encoding: .utf8)

        let otherBus = try TestBus(.session)
        defer { otherBus.stop() }
        let elsewhere = environment(["DBUS_SESSION_BUS_ADDRESS": otherBus.address])
        let second = try BackgroundProgram(Products.path("mprisd"), ["--verbose"], environment: elsewhere)
        let status = await second.waitForExit()
        XCTAssertEqual(status, 69, second.stderr)
        let lines = second.stderr.split(separator: "\n")
        XCTAssertEqual(lines.filter { $0.contains("not starting: the mprisd of another session bus (pid \(first.pid))") }.count, 1,
                       second.stderr)
        XCTAssertFalse(second.stderr.contains("serving"), "never owned the name: \(second.stderr)")
        XCTAssertFalse(second.stderr.contains("journal:"), "replayed nothing: \(second.stderr)")
        XCTAssertEqual(try String(contentsOfFile: journalPath, encoding: .utf8), journal, "the first daemon's journal untouched")
        let volume = try await mpv.volume()
        XCTAssertEqual(volume, ducked, accuracy: 0.002, "the first daemon's duck untouched")
        XCTAssertTrue(first.isRunning)

        let asked = try await runProgram(Products.path("mprisd"), ["status"], environment: elsewhere, timeout: .seconds(20))
        XCTAssertEqual(asked.status, 69, asked.stderr)
        XCTAssertTrue(asked.stderr.contains("no policy daemon on this session bus: the mprisd of another session bus "
                                            + "(pid \(first.pid)) keeps its journal in"), asked.stderr)
        let here = try await mprisd(["status"])
        XCTAssertEqual(here.status, 0, "the first bus is served: \(here.stderr)")

        ducker.kill()
        await waitForVolume(mpv, user, "the ducker gone")
        first.signal(SIGTERM)
        _ = await first.waitForExit()
        let later = try BackgroundProgram(Products.path("mprisd"), ["--verbose"], environment: elsewhere)
        defer { later.kill() }
        let serving = await eventually(timeout: .seconds(10)) { later.stderr.contains("serving org.mprisd.AudioPolicy") }
        XCTAssertTrue(serving, "once the first is gone, the second bus's daemon starts: \(later.stderr)")
    }
}
