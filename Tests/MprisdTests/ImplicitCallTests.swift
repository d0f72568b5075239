import Foundation
import TestSupport
import XCTest

/// Calls from apps that know nothing of mprisd (G-CALLS, G-INT-RESUME): a call app's capture
/// stream pauses the MPRIS players and mutes the streams without MPRIS for exactly as long as it
/// records; afterwards the players play again and the streams are unmuted. A browser's generic
/// input is a call only when held with playback long enough: a two-second voice search is not.
/// Real PulseAudio and real PipeWire + WirePlumber + pipewire-pulse, real mpv with mpv-mpris.
final class ImplicitCallTests: ImplicitSessionTestCase {
    func testAZoomCallPausesMPVAndMutesMusicThenBothComeBackOnPulseAudio() async throws { try await zoomCall(.pulseAudio) }
    func testAZoomCallPausesMPVAndMutesMusicThenBothComeBackOnPipeWire() async throws { try await zoomCall(.pipeWire) }

    private func zoomCall(_ kind: AudioServerKind) async throws {
        try await callPausesAndMutes(kind, app: "ZOOM VoiceEngine", role: nil, reason: "name table: ZOOM VoiceEngine")
    }

    func testAPhoneRolePairIsACallOnPulseAudio() async throws { try await phoneCall(.pulseAudio) }
    func testAPhoneRolePairIsACallOnPipeWire() async throws { try await phoneCall(.pipeWire) }

    private func phoneCall(_ kind: AudioServerKind) async throws {
        try await callPausesAndMutes(kind, app: "softphone", role: "phone", reason: "role: phone")
    }

    private func callPausesAndMutes(_ kind: AudioServerKind, app: String, role: String?, reason: String) async throws {
        try await startPulse(kind)
        try await startStreamDaemon()
        let mpv = try await startMPV()
        let (_, music) = try await startUnknownMusic()
        let callPlayback = try startApp(app, role: role)
        _ = try await waitForApp(app)
        try await assertKeeps(music.index, "the call's playback alone begins nothing") { !$0.muted }
        let before = try await busStatus()
        XCTAssertEqual(before.player(mpv.busName)?.status, "Playing")

        let capture = try startRecording(app, role: role)
        try await waitForSinkInput("the music muted by the call") { $0.index == music.index && $0.muted }
        try await waitForStatus("mpv paused by the call") { $0.player(mpv.busName)?.status == "Paused" }
        let status = try await busStatus()
        let shown = try XCTUnwrap(status.app(app), "the call app is listed: \(status)")
        XCTAssertEqual(shown.appClass, "call")
        XCTAssertEqual(shown.reason, reason)
        XCTAssertTrue(shown.state.contains("active"), "\(shown)")
        XCTAssertEqual(status.app("jukebox")?.state.contains("interrupted (muted)"), true, "\(status)")
        let own = try await waitForApp(app)
        XCTAssertFalse(own.muted, "the call's own playback is never muted")
        let text = try await mprisd(["status"])
        let row = try XCTUnwrap(text.stdout.split(separator: "\n").first { $0.hasPrefix("  \(app) ") }, text.stdout)
        XCTAssertTrue(row.contains(" call ") && row.contains(reason) && row.hasSuffix("active"), String(row))

        capture.stop()
        callPlayback.stop()
        try await waitForSinkInput("the music unmuted after the call") { $0.index == music.index && !$0.muted }
        try await waitForStatus("mpv plays again after the call") { $0.player(mpv.busName)?.status == "Playing" }
    }

    func testACallThatReopensItsMicrophoneResumesAndUnmutesOnceItEndsOnPulseAudio() async throws {
        try await reopenedMicrophone(.pulseAudio)
    }

    func testACallThatReopensItsMicrophoneResumesAndUnmutesOnceItEndsOnPipeWire() async throws {
        try await reopenedMicrophone(.pipeWire)
    }

    func testACallWhoseMicrophoneStaysClosedPastTheGraceLeavesNothingBehindOnPulseAudio() async throws {
        try await reopenedMicrophone(.pulseAudio, gaps: [.milliseconds(700), .milliseconds(560)])
    }

    func testACallWhoseMicrophoneStaysClosedPastTheGraceLeavesNothingBehindOnPipeWire() async throws {
        try await reopenedMicrophone(.pipeWire, gaps: [.milliseconds(700), .milliseconds(560)])
    }

    /// Zoom or a browser switching input device mid-call closes its capture stream and opens a new
    /// one a few milliseconds later (issue 24): the call goes on, so the music stays paused and the
    /// other app muted throughout — and once the call really ends, mpv plays and the app is
    /// unmuted, once each. A microphone closed for longer than `CallTiming.reopenGrace` ends the
    /// call and the next one begins another: whatever crosses in between (a resume landing as the
    /// next call begins), once the last call ends nothing is left muted or paused.
    private func reopenedMicrophone(_ kind: AudioServerKind,
                                    gaps: [Duration] = [.zero, .milliseconds(10), .milliseconds(30)]) async throws {
        let onePause = gaps.allSatisfy { $0 < .milliseconds(300) }
        try await startPulse(kind)
        try await startStreamDaemon()
        let mpv = try await startMPV()
        let (_, music) = try await startUnknownMusic()
        var capture = try await startReopeningCapture("ZOOM VoiceEngine")
        try await waitForSinkInput("the music muted by the call") { $0.index == music.index && $0.muted }
        try await waitForStatus("mpv paused by the call") { $0.player(mpv.busName)?.status == "Paused" }

        for gap in gaps {
            try await capture.reopen(after: gap)
        }
        if onePause {
            try await assertKeeps(music.index, "the music stays muted while the call goes on", for: .milliseconds(600)) { $0.muted }
            try await assertStays(mpv, "Paused", for: .milliseconds(300))
        } else {
            try await waitForSinkInput("the music muted by the last call") { $0.index == music.index && $0.muted }
            try await waitForStatus("mpv paused by the last call") { $0.player(mpv.busName)?.status == "Paused" }
        }

        await capture.stop()
        try await waitForSinkInput("the music unmuted after the call") { $0.index == music.index && !$0.muted }
        try await waitForStatus("mpv plays again after the call") { $0.player(mpv.busName)?.status == "Playing" }
        try await assertKeeps(music.index, "and stays unmuted", for: .milliseconds(600)) { !$0.muted }
        try await assertStays(mpv, "Playing", for: .milliseconds(300))
        let log = daemon?.stderr ?? ""
        let resumes = log.split(separator: "\n").filter { $0.contains(mpv.busName) && $0.contains("interruption ended") }
        if onePause { XCTAssertEqual(resumes.count, 1, "resumed once, when the call ended: \(log)") }
    }

    func testAVoiceSearchOfTwoSecondsIsNoCallOnPulseAudio() async throws { try await voiceSearch(.pulseAudio) }
    func testAVoiceSearchOfTwoSecondsIsNoCallOnPipeWire() async throws { try await voiceSearch(.pipeWire) }

    /// "Chromium input" held for two seconds with the browser's playback: voice search, not a call.
    private func voiceSearch(_ kind: AudioServerKind) async throws {
        try await startPulse(kind)
        try await startStreamDaemon()
        let mpv = try await startMPV()
        let (_, music) = try await startUnknownMusic()
        try startApp("Chromium")
        _ = try await waitForApp("Chromium")
        let input = try startRecording("Chromium input")
        try await assertKeeps(music.index, "nothing is muted while it may be voice search", for: .milliseconds(1800)) { !$0.muted }
        input.stop()
        try await assertKeeps(music.index, "nor after it, past the minimum time", for: .milliseconds(2500)) { !$0.muted }
        try await assertStays(mpv, "Playing", for: .milliseconds(300))
        await waitForDaemonLog("Chromium input", "may be a call", "heuristic call")
        let log = daemon?.stderr ?? ""
        let activations = log.split(separator: "\n").filter { $0.contains("Chromium input") && $0.hasSuffix(" active") }
        XCTAssertEqual(activations, [], "no call began: \(log)")
    }

    func testABrowserCallHeldWithPlaybackBeginsAfterItsMinimumTimeOnPulseAudio() async throws {
        try await startPulse(.pulseAudio)
        try await startStreamDaemon()
        let (_, music) = try await startUnknownMusic()
        try startApp("Chromium")
        _ = try await waitForApp("Chromium")
        let began = ContinuousClock.now
        let input = try startRecording("Chromium input")
        try await waitForSinkInput("the music muted once the browser call held", timeout: .seconds(15)) {
            $0.index == music.index && $0.muted
        }
        let waited = ContinuousClock.now - began
        XCTAssertGreaterThanOrEqual(waited, .seconds(3), "not before the minimum time")
        input.stop()
        try await waitForSinkInput("unmuted when the input closes") { $0.index == music.index && !$0.muted }
    }

    func testACallAppCorkingItsCaptureBrieflyDoesNotEndTheCallOnPulseAudio() async throws {
        try await startPulse(.pulseAudio)
        try await startStreamDaemon()
        let (_, music) = try await startUnknownMusic()
        let capture = try startRecording("ZOOM VoiceEngine")
        try await waitForSinkInput("muted by the call") { $0.index == music.index && $0.muted }
        // SIGSTOP leaves the stream in place, uncorked: the call goes on. What corks a capture
        // stream is the app; paplay/parec cannot, so the grace period is covered by
        // ImplicitPlanTests; here: a second call app joining does not end the first call.
        let second = try startRecording("Mumble")
        try await waitForStatus("both calls are listed") { $0.app("Mumble")?.appClass == "call" }
        second.stop()
        try await assertKeeps(music.index, "the first call still mutes the music", for: .seconds(1)) { $0.muted }
        capture.stop()
        try await waitForSinkInput("unmuted after the last call") { $0.index == music.index && !$0.muted }
    }

    func testTheDaemonKilledDuringACallLeavesNothingMutedOrPausedOnPulseAudio() async throws { try await killedDuringACall(.pulseAudio) }
    func testTheDaemonKilledDuringACallLeavesNothingMutedOrPausedOnPipeWire() async throws { try await killedDuringACall(.pipeWire) }

    private func killedDuringACall(_ kind: AudioServerKind) async throws {
        try await startPulse(kind)
        let first = try await startStreamDaemon()
        let mpv = try await startMPV()
        let (_, music) = try await startUnknownMusic()
        let capture = try startRecording("ZOOM VoiceEngine")
        try await waitForSinkInput("muted by the call") { $0.index == music.index && $0.muted }
        try await waitForStatus("mpv paused by the call") { $0.player(mpv.busName)?.status == "Paused" }
        first.signal(SIGKILL)
        capture.stop()
        try await waitUntil("the killed daemon's name is gone") { try await self.policyOwner() == nil }
        try await startStreamDaemon()
        try await waitForSinkInput("unmuted by the next daemon") { $0.index == music.index && !$0.muted }
        try await waitForStatus("mpv resumed: the call that paused it is over", timeout: .seconds(10)) {
            $0.player(mpv.busName)?.status == "Playing"
        }
    }

    func testWithKeepPausedAfterCallsThePlayerStaysPausedAndTheMusicIsUnmutedOnPulseAudio() async throws {
        try await startPulse(.pulseAudio)
        try await startDaemon(["--keep-paused-after-calls"], environment: serverVariables)
        await waitForDaemonLog("connected to the audio server", timeout: .seconds(10))
        let mpv = try await startMPV()
        let (_, music) = try await startUnknownMusic()
        let capture = try startRecording("ZOOM VoiceEngine")
        try await waitForStatus("mpv paused by the call") { $0.player(mpv.busName)?.status == "Paused" }
        capture.stop()
        try await waitForSinkInput("the music unmuted all the same") { $0.index == music.index && !$0.muted }
        try await assertStays(mpv, "Paused", for: .seconds(1))
    }

    /// The first call made the music's session inactive in the engine (an interrupted session
    /// is); once the call ends it is active again, so the next call mutes the music again and a
    /// prompt after it ducks it (ImplicitSessionPolicyTests covers the same in process).
    func testAfterACallTheNextCallMutesTheMusicAgainAndAPromptDucksItOnPulseAudio() async throws {
        try await startPulse(.pulseAudio)
        try await startStreamDaemon()
        let (_, music) = try await startUnknownMusic()
        let first = try startRecording("ZOOM VoiceEngine")
        try await waitForSinkInput("muted by the first call") { $0.index == music.index && $0.muted }
        first.stop()
        try await waitForSinkInput("unmuted after it") { $0.index == music.index && !$0.muted }
        try await waitForStatus("the music's session active again") { $0.app("jukebox")?.state == "active" }
        let second = try startRecording("Mumble")
        try await waitForSinkInput("muted by the second call") { $0.index == music.index && $0.muted }
        second.stop()
        try await waitForSinkInput("unmuted after the second call") { $0.index == music.index && !$0.muted }
        let prompt = try startApp("navigator", role: "navigation")
        try await waitForSinkInput("ducked by a prompt after the calls") {
            $0.index == music.index && $0.volumes.allSatisfy { $0 == Self.ducked(Self.norm) }
        }
        prompt.stop()
        try await waitForSinkInput("back at its volume") { $0.index == music.index && $0.volumes.allSatisfy { $0 == Self.norm } }
    }
}
