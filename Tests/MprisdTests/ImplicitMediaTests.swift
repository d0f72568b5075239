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
}
