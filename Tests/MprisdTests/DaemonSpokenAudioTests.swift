import DBus
import Foundation
import TestSupport
import XCTest

/// The daemon reads `player` rules from the user's apps file: an mpv playing music that a rule
/// marks as spoken audio is paused by a voice prompt (`mprisd run`, a client of the library) and
/// resumed after it, and `mprisd status` says why.
final class DaemonSpokenAudioTests: DaemonTestCase {
    /// Writes `$XDG_CONFIG_HOME/mprisd/apps`.
    private func writeAppsFile(_ text: String) throws {
        let directory = path("config") + "/mprisd"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try text.write(toFile: directory + "/apps", atomically: true, encoding: .utf8)
    }

    private func prompt(seconds: String) throws -> BackgroundProgram {
        try run(["--category", "playback", "--mode", "voicePrompt", "--duck", "--interrupt-spoken", "--notify-others",
                 "--", "sleep", seconds])
    }

    func testAPlayerRuleInTheAppsFileGetsMpvPausedByAPromptAndResumed() async throws {
        try writeAppsFile("""
            player mpv = spokenAudio
            player mpv = nonsense
            """)
        try await startDaemon()
        await waitForDaemonLog("mprisd/apps:2: a player is non-mixing playback")
        let mpv = try await startMPV()
        let marked = try await waitForStatus("mpv is spoken audio by rule") { status in
            status.player(mpv.busName)?.mode == "spokenAudio"
        }
        XCTAssertEqual(marked.player(mpv.busName)?.modeReason, "rule line 1")
        let text = try await mprisd(["status"])
        XCTAssertTrue(text.stdout.contains("spoken-audio"), text.stdout)

        let navigation = try prompt(seconds: "2")
        let paused = await mpv.waitForStatus("Paused", timeout: .seconds(3))
        XCTAssertTrue(paused, "the prompt pauses spoken audio: \(daemon?.stderr ?? "")")
        XCTAssertTrue(navigation.isRunning, "paused while the prompt speaks, not after")
        let status = await navigation.waitForExit()
        XCTAssertEqual(status, 0, navigation.stderr)
        let resumed = await mpv.waitForStatus("Playing", timeout: .seconds(3))
        XCTAssertTrue(resumed, "the prompt's end resumes it: \(daemon?.stderr ?? "")")
    }

    func testWithoutARuleThePromptDucksMpv() async throws {
        try await startDaemon()
        let mpv = try await startMPV()
        let prior = try await setVolumeAnnounced(mpv, 0.7)
        let plain = try await busStatus()
        XCTAssertEqual(plain.player(mpv.busName)?.mode, "default", "\(plain)")

        let navigation = try prompt(seconds: "1.5")
        let ducked = await eventually(timeout: .seconds(3)) { ((try? await mpv.volume()) ?? prior) < prior - 0.05 }
        XCTAssertTrue(ducked, "music is ducked: \(daemon?.stderr ?? "")")
        try await assertStays(mpv, "Playing", for: .milliseconds(300))
        _ = await navigation.waitForExit()
        let restored = await eventually(timeout: .seconds(3)) { (try? await mpv.volume()) == prior }
        XCTAssertTrue(restored, "volume back to \(prior): \(daemon?.stderr ?? "")")
    }
}
