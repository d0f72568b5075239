import DBus
import Foundation
import TestSupport
import XCTest

/// `mprisd control` on the active player (issue 16): each action reaches the player as the
/// MPRIS call it means, a Pause never reaches a player that is not playing, and no player or no
/// daemon is one line and a non-zero exit.
final class DaemonControlTests: ArbiterTestCase {
    func testEveryActionReachesTheActivePlayerAsItsCall() async throws {
        try await startDaemon()
        let fake = try await startFake("keys", status: "Playing")
        try await waitForActive(fake.busName)
        for arguments in [["next"], ["previous"], ["seek", "-5"], ["seek", "+2.5"], ["position", "30"], ["volume", "+0.05"],
                          ["volume", "-1"], ["pause"], ["play"], ["play-pause"], ["stop"]] {
            let result = try await mprisd(["control"] + arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
        }
        try await waitForCalls(fake, ["Next", "Previous", "Seek -5000000", "Seek 2500000",
                                      "SetPosition /org/mprisd/test/track/1 30000000", "Set Volume 0.55", "Set Volume 0.00",
                                      "Pause", "Play", "Pause", "Stop"])
    }

    func testATogglingPlayerIsNeverStartedByAPause() async throws {
        try await startDaemon()
        let fake = try await startFake("toggler", status: "Playing", "toggling")
        try await waitForActive(fake.busName)
        var result = try await control("pause")
        XCTAssertEqual(result.status, 0, result.stderr)
        try await waitForCalls(fake, ["Pause"])
        try await waitForListing("the arbiter saw it paused") { $0.active?.status == "Paused" }

        // Still active (paused by the user, in its context); a second pause sends nothing.
        result = try await control("pause", "--verbose")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("no Pause sent"), result.stdout)
        let after = try await status(of: fake)
        XCTAssertEqual(after, "Paused", "a second Pause would have started it")
        XCTAssertEqual(fake.calls, ["Pause"])

        // play-pause: Play to a paused player, Pause to a playing one — never PlayPause.
        _ = try await control("play-pause")
        try await waitForCalls(fake, ["Pause", "Play"])
        _ = try await control("play-pause")
        try await waitForCalls(fake, ["Pause", "Play", "Pause"])
        let end = try await status(of: fake)
        XCTAssertEqual(end, "Paused")
    }

    func testAPauseIsDecidedOnThePlayersStatusNowNotOnItsLastSignal() async throws {
        try await startDaemon()
        // It does not announce its changes: the arbiter still believes it plays after the
        // user's Pause (as between two of mpv-mpris' batches).
        let fake = try await startFake("batched", status: "Playing", "toggling", "quiet")
        try await waitForActive(fake.busName)
        try await call(fake, "Pause")
        try await waitForCalls(fake, ["Pause"])
        let listing = try await listing()
        XCTAssertEqual(listing.active?.status, "Playing", "the arbiter was not told")

        let result = try await control("pause")
        XCTAssertEqual(result.status, 0, result.stderr)
        let now = try await status(of: fake)
        XCTAssertEqual(now, "Paused", "a Pause sent on the stale status would have started it")
        XCTAssertEqual(fake.calls, ["Pause"])
    }

    func testPlayPauseTogglesMpv() async throws {
        try await startDaemon()
        let mpv = try await startMPV()
        try await waitForActive(mpv.busName)
        var result = try await control("play-pause")
        XCTAssertEqual(result.status, 0, result.stderr)
        var reached = await mpv.waitForStatus("Paused", timeout: .seconds(5))
        XCTAssertTrue(reached, "mpv paused")
        try await waitForListing("the arbiter saw mpv paused") { $0.active?.status == "Paused" }
        result = try await control("play-pause")
        XCTAssertEqual(result.status, 0, result.stderr)
        reached = await mpv.waitForStatus("Playing", timeout: .seconds(5))
        XCTAssertTrue(reached, "mpv playing again")
    }

    func testMprisdControlTheLeanProgramIsTheSameCommand() async throws {
        let lean = Products.path("mprisd-control")
        var result = try await runProgram(lean, ["play-pause"], environment: environment())
        XCTAssertEqual(result.status, 69, result.stderr)
        try await startDaemon()
        result = try await runProgram(lean, ["play-pause"], environment: environment())
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(result.stderr, "mprisd control: no player is in an audio context\n")
        let fake = try await startFake("lean", status: "Playing", "toggling")
        try await waitForActive(fake.busName)
        result = try await runProgram(lean, ["play-pause", "--verbose"], environment: environment())
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "Pause sent to org.mpris.MediaPlayer2.lean\n")
        result = try await runProgram(lean, ["seek", "-5"], environment: environment())
        XCTAssertEqual(result.status, 0, result.stderr)
        try await waitForCalls(fake, ["Pause", "Seek -5000000"])
        for bad in [["jump"], ["seek"], ["seek", "x"], ["next", "extra"], []] {
            result = try await runProgram(lean, bad, environment: environment())
            XCTAssertEqual(result.status, 64, "\(bad): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        }
    }

    /// Issue 24: a key press gives up within a second and names what did not answer — a player
    /// that never answers (stopped), or the daemon itself (stopped) — for both programs; the
    /// other commands give up after 5 s, naming the daemon.
    func testAKeyPressGivesUpWithinASecondNamingWhatDidNotAnswer() async throws {
        let daemon = try await startDaemon()
        let fake = try await startFake("frozen", status: "Playing")
        try await waitForActive(fake.busName)
        let lean = Products.path("mprisd-control")
        kill(fake.process.pid, SIGSTOP)
        defer { kill(fake.process.pid, SIGCONT) }
        for program in [Products.path("mprisd"), lean] {
            let started = ContinuousClock.now
            let result = try await runProgram(program, program == lean ? ["pause"] : ["control", "pause"], environment: environment())
            XCTAssertLessThan(ContinuousClock.now - started, .seconds(4), "gave up within the bound")
            XCTAssertEqual(result.status, 1, result.stderr)
            XCTAssertTrue(result.stderr.hasPrefix("mprisd control: org.mpris.MediaPlayer2.frozen (:1."), result.stderr)
            XCTAssertTrue(result.stderr.contains("did not answer Get PlaybackStatus (or the Pause after it) within 400 ms"),
                          result.stderr)
        }
        kill(fake.process.pid, SIGCONT)
        var result = try await control("pause")
        XCTAssertEqual(result.status, 0, "the daemon kept serving: \(result.stderr)")

        daemon.signal(SIGSTOP)
        defer { daemon.signal(SIGCONT) }
        for program in [Products.path("mprisd"), lean] {
            let started = ContinuousClock.now
            result = try await runProgram(program, program == lean ? ["play"] : ["control", "play"], environment: environment())
            XCTAssertLessThan(ContinuousClock.now - started, .seconds(4), "gave up within the bound")
            XCTAssertEqual(result.status, 1, result.stderr)
            XCTAssertTrue(result.stderr.hasPrefix("mprisd control: the policy daemon org.mprisd.AudioPolicy (:1."), result.stderr)
            XCTAssertTrue(result.stderr.hasSuffix("pid \(daemon.pid)) did not answer within 1 s (stopped, or too busy)\n"),
                          result.stderr)
        }
        for command in [["status"], ["players"]] {
            result = try await mprisd(command)
            XCTAssertEqual(result.status, 1, result.stderr)
            XCTAssertTrue(result.stderr.contains("pid \(daemon.pid)) did not answer within 5 s (stopped, or too busy)"),
                          result.stderr)
        }
        daemon.signal(SIGCONT)
        result = try await mprisd(["status"])
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    func testNoPlayerAndNoDaemonAreOneLineAndANonZeroExit() async throws {
        var result = try await control("play-pause")
        XCTAssertEqual(result.status, 69, result.stderr)
        XCTAssertEqual(result.stderr, "mprisd control: no policy daemon on the session bus (start 'mprisd' or install the user service)\n")

        try await startDaemon()
        result = try await control("play-pause")
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(result.stderr, "mprisd control: no player is in an audio context\n")

        result = try await control("seek")
        XCTAssertEqual(result.status, 64, result.stderr)
        result = try await control("jump")
        XCTAssertEqual(result.status, 64, result.stderr)
    }
}
