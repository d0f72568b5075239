import Foundation
import Glibc
import TestSupport
import XCTest

/// Prompts, screen readers and notification sounds from apps that know nothing of mprisd
/// (G-SCN-NAV, G-UI-SOUNDS, G-SILENT): a navigation prompt ducks the music for exactly as long as
/// it plays (what the listener hears drops); notification sounds never duck or pause anything,
/// are muted in silent mode, and the first one after silent mode is audible again; a screen
/// reader is never muted by a call; a rule in the apps file wins over the role; `mprisd run`'s
/// streams are its session's, not an implicit one. Real PulseAudio and PipeWire.
final class ImplicitPromptTests: ImplicitSessionTestCase {
    func testANavigationPromptDucksTheMusicWhileItPlaysOnPulseAudio() async throws { try await navigationPrompt(.pulseAudio) }
    func testANavigationPromptDucksTheMusicWhileItPlaysOnPipeWire() async throws { try await navigationPrompt(.pipeWire) }

    private func navigationPrompt(_ kind: AudioServerKind) async throws {
        try writeApps("player mpv = spokenAudio\n")  // a podcast in mpv
        try await startPulse(kind)
        try await startStreamDaemon()
        let podcast = try await startMPV()
        let (_, music) = try await startUnknownMusic()
        let loud = try await waitForLevel("the music is heard") { $0 > 0.05 }
        let prompt = try startApp("navigator", role: "navigation")
        let promptStream = try await waitForApp("navigator")
        // The prompt itself silent, so the monitor hears only the music.
        try await setVolume(promptStream.index, raw: 0)
        try await waitForSinkInput("the music ducked by the prompt") {
            $0.index == music.index && $0.volumes.allSatisfy { $0 == Self.ducked(Self.norm) }
        }
        let quiet = try await waitForLevel("what the listener hears drops") { $0 < loud * 0.2 }
        XCTAssertLessThan(quiet, loud * 0.2)
        try await waitForStatus("the podcast is paused, not ducked, under the prompt") {
            $0.player(podcast.busName)?.status == "Paused"
        }
        let status = try await busStatus()
        XCTAssertEqual(status.app("navigator")?.appClass, "prompt", "\(status)")
        XCTAssertEqual(status.app("navigator")?.reason, "role: navigation", "\(status)")
        prompt.stop()
        try await waitForSinkInput("the music back at its volume") {
            $0.index == music.index && $0.volumes.allSatisfy { $0 == Self.norm }
        }
        try await waitForStatus("the podcast plays again after the prompt") {
            $0.player(podcast.busName)?.status == "Playing"
        }
    }

    /// Writes the user's apps file.
    private func writeApps(_ text: String) throws {
        let directory = userDirectories["XDG_CONFIG_HOME", default: ""] + "/mprisd"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try text.write(toFile: directory + "/apps", atomically: true, encoding: .utf8)
    }

    func testNotificationSoundsMixMutedInSilentModeAndAudibleAfterOnPulseAudio() async throws { try await notifications(.pulseAudio) }
    func testNotificationSoundsMixMutedInSilentModeAndAudibleAfterOnPipeWire() async throws { try await notifications(.pipeWire) }

    private func notifications(_ kind: AudioServerKind) async throws {
        try await startPulse(kind)
        try await startStreamDaemon()
        let mpv = try await startMPV()
        let (_, music) = try await startUnknownMusic()
        let first = try startApp("notifier", role: "event", seconds: 30)
        let ding = try await waitForApp("notifier")
        try await assertKeeps(music.index, "a notification ducks nothing") { $0.volumes.allSatisfy { $0 == Self.norm } && !$0.muted }
        try await assertKeeps(ding.index, "and is heard", for: .milliseconds(300)) { !$0.muted }
        try await assertStays(mpv, "Playing", for: .milliseconds(200))

        _ = try await mprisd(["silent", "on"])
        try await waitForSinkInput("muted in silent mode") { $0.index == ding.index && $0.muted }
        try await assertKeeps(music.index, "the music is not", for: .milliseconds(300)) { !$0.muted }
        // It ends while muted: the server files the mute under its role.
        first.stop()
        await waitForDaemonLog("stream is set right if it starts with")
        _ = try await mprisd(["silent", "off"])
        try startApp("notifier", role: "event", seconds: 30)
        let next = try await waitForApp("notifier", "the first notification after silent mode, unmuted") {
            $0.index != ding.index && !$0.muted
        }
        try await assertKeeps(next.index, "it stays audible") { !$0.muted }
    }

    func testNotificationSoundsAreMutedWhileTheScreenIsLockedOnPulseAudio() async throws {
        let logind = try await FakeLogind.start(on: try useSystemBus())
        let uid = UInt32(getuid())
        let session = try await logind.addSession("c7", uid: uid)
        try await logind.setDisplay(uid: uid, session: "c7", path: session)
        try await startPulse(.pulseAudio)
        try await startStreamDaemon()
        let (_, music) = try await startUnknownMusic()
        try await logind.setLocked(true, session: session)
        try await waitForStatus("locked") { $0.locked }
        try startApp("notifier", role: "event")
        let ding = try await waitForApp("notifier", "a notification starting while locked is muted") { $0.muted }
        try await waitForStatus("shown as silenced by the lock") {
            $0.app("notifier")?.state.contains("silenced by the screen lock") == true
        }
        try await assertKeeps(music.index, "the music is not", for: .milliseconds(300)) { !$0.muted }
        try await logind.setLocked(false, session: session)
        try await waitForSinkInput("heard once unlocked") { $0.index == ding.index && !$0.muted }
    }

    func testAScreenReaderIsNeverMutedByACallAndDucksTheMusicOnPulseAudio() async throws { try await screenReader(.pulseAudio) }
    func testAScreenReaderIsNeverMutedByACallAndDucksTheMusicOnPipeWire() async throws { try await screenReader(.pipeWire) }

    private func screenReader(_ kind: AudioServerKind) async throws {
        try await startPulse(kind)
        try await startStreamDaemon()
        let (_, music) = try await startUnknownMusic()
        let reader = try startApp("orca", role: "a11y")
        let speech = try await waitForApp("orca")
        try await waitForSinkInput("the screen reader ducks the music") {
            $0.index == music.index && $0.volumes.allSatisfy { $0 == Self.ducked(Self.norm) }
        }
        try startRecording("ZOOM VoiceEngine")
        try await waitForSinkInput("the call mutes the music") { $0.index == music.index && $0.muted }
        try await assertKeeps(speech.index, "the screen reader is untouched by the call") {
            !$0.muted && $0.volumes.allSatisfy { $0 == Self.norm }
        }
        reader.stop()
    }

    func testARuleInTheAppsFileWinsOverTheRoleOnPulseAudio() async throws { try await ruleWins(.pulseAudio) }
    func testARuleInTheAppsFileWinsOverTheRoleOnPipeWire() async throws { try await ruleWins(.pipeWire) }

    private func ruleWins(_ kind: AudioServerKind) async throws {
        try writeApps("# the radio tags itself phone, but it is no call\napp radio = ignore\nnot a rule\n")
        try await startPulse(kind)
        try await startStreamDaemon()
        await waitForDaemonLog("mprisd/apps:3:", "expected")
        let (_, music) = try await startUnknownMusic()
        try startApp("radio", role: "phone")
        try startRecording("radio", role: "phone")
        try await waitForStatus("the radio is listed as ignored, by its rule") { status in
            status.apps?.contains { $0.application == "radio" && $0.appClass == "ignore" && $0.reason == "rule line 2" } == true
        }
        try await assertKeeps(music.index, "a phone-role pair under an ignore rule mutes nothing", for: .seconds(1)) { !$0.muted }
        // The same pair without the rule is a call (ImplicitCallTests).
    }

    func testTheStreamOfARunsChildIsTheRunsSessionNotAnImplicitOneOnPulseAudio() async throws { try await runsChild(.pulseAudio) }
    func testTheStreamOfARunsChildIsTheRunsSessionNotAnImplicitOneOnPipeWire() async throws { try await runsChild(.pipeWire) }

    private func runsChild(_ kind: AudioServerKind) async throws {
        try await startPulse(kind)
        try await startStreamDaemon()
        let file = try track("run-call.wav", seconds: 30)
        _ = try run(["--category", "playAndRecord", "--mode", "voiceChat", "--name", "softcall", "--",
                     "/usr/bin/paplay", "--client-name=ZOOM VoiceEngine", file], environment: serverVariables)
        let stream = try await waitForApp("ZOOM VoiceEngine")
        XCTAssertEqual(stream.role, "phone", "the run's category tags the child's stream")
        try await waitForStatus("the stream is paired with the run's session") { status in
            status.json.contains("(softcall, ") && status.apps?.contains { $0.application == "ZOOM VoiceEngine" } == false
        }
    }
}
