import DBus
import Foundation
import TestSupport
import XCTest

/// What the daemon does to an ordinary MPRIS player (mpv with mpv-mpris) when `mprisd run`
/// sessions and other players come and go: pause, resume only when told, duck and restore the
/// exact volume — seen in mpv's own MPRIS properties.
final class DaemonForeignPlayerTests: DaemonTestCase {
    func testVoiceChatPausesMpvAndNotifyOthersResumesIt() async throws {
        try await startDaemon()
        let mpv = try await startMPV()
        let call = try run(["--category", "playAndRecord", "--mode", "voiceChat", "--notify-others", "--", "sleep", "2"])

        let paused = await mpv.waitForStatus("Paused", timeout: .seconds(2))
        XCTAssertTrue(paused, "the call pauses mpv: \(daemon?.stderr ?? "")")
        XCTAssertTrue(call.isRunning, "paused while the call runs, not after")
        let during = try await busStatus()
        XCTAssertEqual(during.player(mpv.busName)?.pausedByPolicy, true, "\(during)")
        XCTAssertEqual(during.session(named: "sleep")?.mode, "voiceChat", "\(during)")

        let status = await call.waitForExit()
        XCTAssertEqual(status, 0, call.stderr)
        let resumed = await mpv.waitForStatus("Playing", timeout: .seconds(2))
        XCTAssertTrue(resumed, "notify-others resumes mpv: \(daemon?.stderr ?? "")")
        try await waitForStatus("mpv no longer paused by policy, the call gone") { status in
            status.player(mpv.busName)?.pausedByPolicy == false && status.session(named: "sleep") == nil
        }
    }

    func testWithoutNotifyOthersMpvStaysPaused() async throws {
        try await startDaemon()
        let mpv = try await startMPV()
        let call = try run(["--category", "playAndRecord", "--mode", "voiceChat", "--", "sleep", "1.5"])

        let paused = await mpv.waitForStatus("Paused", timeout: .seconds(2))
        XCTAssertTrue(paused, "the call pauses mpv: \(daemon?.stderr ?? "")")
        XCTAssertTrue(call.isRunning)
        let status = await call.waitForExit()
        XCTAssertEqual(status, 0, call.stderr)
        await waitForDaemonLog("(sleep,", "deactivated")
        XCTAssertFalse(daemon?.stderr.contains("deactivated notifying others") ?? true)
        await waitForDaemonLog("\(mpv.busName) stays paused: interruption ended without resume")
        try await assertStays(mpv, "Paused")
    }

    func testDuckingLowersTheVolumeAndRestoresTheExactPriorValue() async throws {
        try await startDaemon()
        let mpv = try await startMPV()
        let prior = try await setVolumeAnnounced(mpv, 0.73)
        let current = try await mpv.volume()
        XCTAssertEqual(current, prior, "mpv reads back what it announced")

        let prompt = try run(["--mix", "--duck", "--", "sleep", "1.5"])
        let ducked = await eventually(timeout: .seconds(1.5)) { ((try? await mpv.volume()) ?? prior) < prior - 0.05 }
        XCTAssertTrue(ducked, "mpv ducked: \(daemon?.stderr ?? "")")
        XCTAssertTrue(prompt.isRunning, "ducked while the prompt runs")
        let playing = try await mpv.playbackStatus()
        XCTAssertEqual(playing, "Playing", "ducking is not pausing")
        let during = try await busStatus()
        XCTAssertEqual(during.player(mpv.busName)?.ducked, true, "\(during)")

        let status = await prompt.waitForExit()
        XCTAssertEqual(status, 0, prompt.stderr)
        let restored = await eventually(timeout: .seconds(2)) { (try? await mpv.volume()) == prior }
        let after = try await mpv.volume()
        XCTAssertTrue(restored, "volume back to exactly \(prior), is \(after)\n\(daemon?.stderr ?? "")")
        try await assertStays(mpv, "Playing", for: .milliseconds(200))
    }

    func testDuckingRightAfterAVolumeChangeRestoresTheNewValue() async throws {
        try await startDaemon()
        let mpv = try await startMPV()
        // The user changes the volume and a prompt starts at once: mpv-mpris announces the new
        // value only later, so the daemon must read it before it lowers anything.
        try await mpv.setVolume(0.61)
        let prompt = try run(["--mix", "--duck", "--", "sleep", "1"])
        let ducked = await eventually(timeout: .seconds(1.5)) { ((try? await mpv.volume()) ?? 1) < 0.5 }
        XCTAssertTrue(ducked, "mpv ducked: \(daemon?.stderr ?? "")")
        _ = await prompt.waitForExit()
        let restored = await eventually(timeout: .seconds(2)) { (try? await mpv.volume()) == 0.61 }
        let after = try await mpv.volume()
        XCTAssertTrue(restored, "the value the user set last comes back, is \(after)\n\(daemon?.stderr ?? "")")
    }

    func testASecondMpvPausesTheFirstForGood() async throws {
        try await startDaemon()
        let first = try await startMPV()
        let second = try await startMPV()
        XCTAssertNotEqual(first.busName, second.busName)

        let paused = await first.waitForStatus("Paused", timeout: .seconds(2))
        XCTAssertTrue(paused, "the second player pauses the first: \(daemon?.stderr ?? "")")
        let secondStatus = try await second.playbackStatus()
        XCTAssertEqual(secondStatus, "Playing")
        try await waitForStatus("the first is paused by policy") { $0.player(first.busName)?.pausedByPolicy == true }

        // The user pauses the second one, then it exits: neither resumes the first.
        try await second.pause()
        try await waitForStatus("the second is seen paused") { $0.player(second.busName)?.status == "Paused" }
        try await assertStays(first, "Paused")
        second.kill()
        await waitForDaemonLog("stopped tracking \(second.busName)")
        try await assertStays(first, "Paused")
    }

    func testKillingADuckingRunRestoresTheVolumeWithinASecond() async throws {
        try await startDaemon()
        let mpv = try await startMPV()
        let prior = try await setVolumeAnnounced(mpv, 0.61)
        let current = try await mpv.volume()
        XCTAssertEqual(current, prior, "mpv reads back what it announced")

        let prompt = try run(["--mix", "--duck", "--", "sleep", "30"])
        let ducked = await eventually(timeout: .seconds(2)) { ((try? await mpv.volume()) ?? prior) < prior - 0.05 }
        XCTAssertTrue(ducked, "mpv ducked: \(daemon?.stderr ?? "")")

        prompt.signal(SIGKILL)  // mprisd run alone: no deactivation, no unregistration, only its name vanishing
        let killedAt = ContinuousClock.now
        // Not waitForExit: its `sleep` lives on, holding the output open.
        let reaped = await eventually(timeout: .seconds(1)) { !prompt.isRunning }
        XCTAssertTrue(reaped, "mprisd run died")
        let restored = await eventually(timeout: .seconds(1) - (ContinuousClock.now - killedAt)) {
            (try? await mpv.volume()) == prior
        }
        let after = try await mpv.volume()
        XCTAssertTrue(restored, "volume back to exactly \(prior) within 1 s of the kill, is \(after)\n\(daemon?.stderr ?? "")")
        try await waitForStatus("the session is gone") { $0.session(named: "sleep") == nil }
    }
}
