import Foundation
import TestSupport
import XCTest

/// Music without MPRIS is non-mixable playback like any other (G-APP-MEDIA): the newest wins —
/// it pauses a playing MPRIS player when it starts, and is muted while a player started after it
/// plays, never longer. An app that starts music during a call waits for the call's end, muted
/// meanwhile (a delayed activation, G-CALLS). Real PulseAudio and PipeWire, real mpv.
final class ImplicitMediaTests: ImplicitSessionTestCase {
    func testMusicWithoutMPRISAndAPlayerTheNewestWinsOnPulseAudio() async throws { try await newestWins(.pulseAudio) }
    func testMusicWithoutMPRISAndAPlayerTheNewestWinsOnPipeWire() async throws { try await newestWins(.pipeWire) }

    private func newestWins(_ kind: AudioServerKind) async throws {
        try await startPulse(kind)
        try await startStreamDaemon()
        let mpv = try await startMPV()
        try startApp("radio", role: "music")
        let radio = try await waitForApp("radio")
        try await waitForStatus("the newer music pauses the player") { $0.player(mpv.busName)?.status == "Paused" }
        try await assertKeeps(radio.index, "and plays on", for: .milliseconds(300)) { !$0.muted }

        try await mpv.play()  // the user plays the player again: now it is the newest
        try await waitForSinkInput("the radio muted while the player plays") { $0.index == radio.index && $0.muted }
        try await mpv.pause()
        try await waitForSinkInput("unmuted once the player stops") { $0.index == radio.index && !$0.muted }
    }

    func testMusicStartedDuringACallWaitsMutedForItsEndOnPulseAudio() async throws {
        try await startPulse(.pulseAudio)
        try await startStreamDaemon()
        let capture = try startRecording("ZOOM VoiceEngine")
        try await waitForStatus("the call is on") { $0.app("ZOOM VoiceEngine")?.state.contains("active") == true }
        try startApp("radio", role: "music")
        let radio = try await waitForApp("radio", "muted: it waits for the call to end") { $0.muted }
        try await waitForStatus("shown as waiting") { $0.app("radio")?.state.contains("waiting for the call to end") == true }
        capture.stop()
        try await waitForSinkInput("heard once the call ends") { $0.index == radio.index && !$0.muted }
        try await waitForStatus("and active") { $0.app("radio")?.state == "active" }
    }

    /// Issue 24: an animation's sound mixes on both servers — though pipewire-pulse gives its role
    /// back as `video` — and a stream that really is a video still pauses the music once it has
    /// outlasted any animation (three seconds). Without the hold, PipeWire paused mpv for good half
    /// a second into the sound.
    func testAnAnimationSoundLeavesTheMusicPlayingOnPulseAudio() async throws { try await animation(.pulseAudio) }
    func testAnAnimationSoundLeavesTheMusicPlayingOnPipeWire() async throws { try await animation(.pipeWire) }

    private func animation(_ kind: AudioServerKind) async throws {
        try await startPulse(kind)
        try await startStreamDaemon()
        let mpv = try await startMPV()
        let sound = try startApp("animator", role: "animation", seconds: 1.5)
        let reason = kind == .pipeWire ? "role: video, or animation through pipewire-pulse" : "role: animation"
        try await waitForStatus("the sound is known by its role") { $0.app("animator")?.reason == reason }
        let exit = await sound.waitForExit()
        XCTAssertEqual(exit, 0, sound.standardError)
        try await waitForStatus("the sound is over") { $0.app("animator") == nil }
        try await assertStays(mpv, "Playing", for: .milliseconds(300))
        guard kind == .pipeWire else { return }
        try startApp("clip", role: "video")
        try await waitForStatus("a video the same role pauses the music once it has outlasted an animation",
                                timeout: .seconds(15)) { $0.player(mpv.busName)?.status == "Paused" }
    }
}

