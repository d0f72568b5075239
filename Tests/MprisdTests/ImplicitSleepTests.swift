import Foundation
import TestSupport
import XCTest

/// Before sleep (issue 16), apps without MPRIS or our API: their implicit sessions are spared (an
/// interruption would only mute their streams, nothing would resume the app after the wake-up, and
/// the mute would outlive its reason); a program under `mprisd run` is muted until the wake-up.
/// Real PulseAudio and PipeWire, a real `paplay`, a fake logind.
final class ImplicitSleepTests: ImplicitSessionTestCase {
    func testMusicWithoutMPRISIsNotMutedForTheSleepOnPulseAudio() async throws { try await notMuted(.pulseAudio) }
    func testMusicWithoutMPRISIsNotMutedForTheSleepOnPipeWire() async throws { try await notMuted(.pipeWire) }

    private func notMuted(_ kind: AudioServerKind) async throws {
        let logind = try await FakeLogind.start(on: try useSystemBus())
        try await startPulse(kind)
        try await startStreamDaemon()
        try startApp("radio", role: "music")
        let radio = try await waitForApp("radio")
        try await waitForStatus("the radio's implicit session is active") { $0.app("radio")?.state == "active" }

        try await logind.prepareForSleep(true)
        await waitForDaemonLog("the system is going to sleep")
        try await assertKeeps(radio.index, "not muted for the sleep") { !$0.muted }
        let status = try await busStatus()
        XCTAssertEqual(status.app("radio")?.state, "active", "\(status)")

        try await logind.prepareForSleep(false)
        await waitForDaemonLog("the system woke up")
        try await assertKeeps(radio.index, "nor after the wake-up") { !$0.muted }
    }

    /// A program wrapped with `mprisd run` cannot be paused from outside: its streams are muted
    /// from the sleep to the wake-up (what docs/keys-and-headset.md, "Before sleep", says), then
    /// heard again.
    func testAProgramUnderMprisdRunIsMutedUntilTheWakeUpOnPulseAudio() async throws {
        let logind = try await FakeLogind.start(on: try useSystemBus())
        try await startPulse(.pulseAudio)
        try await startStreamDaemon()
        let (_, stream) = try await startMusic()

        try await logind.prepareForSleep(true)
        try await waitForSinkInput("muted for the sleep") { $0.index == stream.index && $0.muted }
        try await logind.prepareForSleep(false)
        try await waitForSinkInput("unmuted at the wake-up") { $0.index == stream.index && !$0.muted }
        try await waitForStatus("its session inactive, not interrupted") { status in
            status.session(named: "music")?.interrupted == false && status.session(named: "music")?.active == false
        }
    }
}
