import Foundation
import TestSupport
import XCTest

/// Issue 24, item 2: with the state directory full or read-only the daemon warned that the journal
/// could not be written and ducked mpv all the same; after a kill -9 nobody gave the volume back
/// (mpv left at 0.24 instead of 0.8). A change that cannot be written down is not made: nothing
/// is ducked, paused or muted, `status` says why, and once there is room again the next decision
/// is made and journaled as usual. Real mpv; the daemon in a private mount namespace whose state
/// directory is a small tmpfs, filled up (ENOSPC) or remounted read-only (EROFS) — what a full
/// disk or a read-only home really answers, even to root.
final class JournalUnwritableTests: ImplicitSessionTestCase {
    private var stateDirectory: String { userDirectories["XDG_STATE_HOME", default: ""] + "/mprisd" }

    /// How the daemon's state directory fails.
    private enum Trouble: String {
        case full
        case readOnly = "read-only"
    }

    /// The command that gives the daemon its state directory as a 64 kB tmpfs of its own mount
    /// namespace — full or read-only — and then execs it (the lock file made beforehand, as a
    /// daemon of an earlier login would have left it).
    private func wrapper(_ trouble: Trouble) throws -> [String] {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare"), "util-linux's unshare is missing")
        let script = """
            set -e
            dir=$1; how=$2; shift 2
            mkdir -p "$dir"
            mount -t tmpfs -o size=64k,mode=0700 mprisd-state "$dir"
            : > "$dir/journal.lock"
            case $how in
                full) head -c 1M /dev/zero > "$dir/filler" 2>/dev/null || true ;;
                read-only) mount -o remount,ro "$dir" ;;
            esac
            exec "$@"
            """
        return ["/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c", script, "sh",
                stateDirectory, trouble.rawValue]
    }

    /// Frees the full tmpfs of the daemon `pid`, inside its namespace.
    private func makeRoom(for pid: Int32) async throws {
        let done = try await runProgram("/usr/bin/nsenter", ["-t", "\(pid)", "-m", "rm", "-f", stateDirectory + "/filler"],
                                        environment: environment(), timeout: .seconds(10))
        XCTAssertEqual(done.status, 0, done.stderr)
    }

    /// The journal as the daemon `pid` sees it (its namespace's state directory).
    private func journal(of pid: Int32) -> String? {
        try? String(contentsOfFile: "/proc/\(pid)/root" + stateDirectory + "/journal", encoding: .utf8)
    }

    private func ducker(_ name: String) throws -> BackgroundProgram {
        try run(["--category", "playback", "--mix", "--duck", "--name", name, "--", "sleep", "60"])
    }

    private func waitForVolume(_ mpv: MPVPlayer, _ volume: Double, _ what: String) async {
        let reached = await eventually(timeout: .seconds(5)) { abs(((try? await mpv.volume()) ?? -1) - volume) < 0.002 }
        let now = (try? await mpv.volume()) ?? -1
        XCTAssertTrue(reached, "\(what): mpv's volume is \(now), not \(volume)\ndaemon: \(daemon?.stderr ?? "")")
    }

    // MARK: A duck of mpv's Volume

    /// Full: the ducker does not lower mpv (the refusal logged, the journal's problem in status,
    /// in JSON and as text); a kill -9 then leaves mpv at the user's 0.8. With room made, the next
    /// ducking is journaled and made, and a kill -9 then gives the volume back through the guard.
    func testAFullStateDirectoryDucksNothingAndTheNextDuckAfterRoomIsJournaled() async throws {
        let first = try await startDaemon(wrapper: wrapper(.full))
        let mpv = try await startMPV()
        let user = try await setVolumeAnnounced(mpv, 0.8)
        let refused = try ducker("ducker")
        await waitForDaemonLog(mpv.busName, "not ducked: the journal of changes cannot be written", "No space left on device")
        try await waitForStatus("the journal's problem shown") { $0.journalProblem?.contains("No space left on device") == true }
        let volume = try await mpv.volume()
        XCTAssertEqual(volume, user, accuracy: 0.002, "nothing that cannot be journaled is changed")
        let text = try await mprisd(["status"])
        XCTAssertTrue(text.stdout.contains("Journal") && text.stdout.contains("nothing is paused, ducked or muted until it can"),
                      text.stdout)

        refused.kill()
        try await waitForStatus("the ducker gone") { $0.session(named: "ducker") == nil }
        try await makeRoom(for: first.pid)
        let (ducker, _) = try await duckedOnce(mpv, from: user)
        XCTAssertTrue(journal(of: first.pid)?.contains("volume \(mpv.busName)") == true,
                      "the duck is journaled: \(journal(of: first.pid) ?? "no journal")")
        let status = try await busStatus()
        XCTAssertNil(status.journalProblem, "the journal is writable again: \(status)")

        first.signal(SIGKILL)
        await waitForVolume(mpv, user, "the journal guard restores the user's volume")
        ducker.kill()
    }

    private func duckedOnce(_ mpv: MPVPlayer, from volume: Double) async throws -> (BackgroundProgram, Double) {
        let ducker = try ducker("ducker-2")
        let ducked = await eventually(timeout: .seconds(3)) { ((try? await mpv.volume()) ?? volume) < volume - 0.05 }
        XCTAssertTrue(ducked, "mpv ducked once there is room: \(daemon?.stderr ?? "")")
        let value = try await mpv.volume()
        XCTAssertEqual(value, volume * 0.3, accuracy: 0.002)
        return (ducker, value)
    }

    /// Read-only: a call does not pause mpv (a pause nobody could resume after a crash); killed,
    /// the daemon leaves mpv playing as the user had it.
    func testAReadOnlyStateDirectoryPausesNothingForACallAndAKillLeavesMPVPlaying() async throws {
        let first = try await startDaemon(wrapper: wrapper(.readOnly))
        let mpv = try await startMPV()
        try await waitForStatus("mpv followed") { $0.player(mpv.busName)?.status == "Playing" }
        let caller = try run(["--category", "playAndRecord", "--mode", "voiceChat", "--name", "call", "--", "sleep", "60"])
        await waitForDaemonLog(mpv.busName, "not paused: the journal of changes cannot be written", "Read-only file system")
        try await assertStays(mpv, "Playing", for: .milliseconds(300))
        try await waitForStatus("the journal's problem shown") { $0.journalProblem?.contains("Read-only file system") == true }
        first.signal(SIGKILL)
        caller.kill()
        try await assertStays(mpv, "Playing", for: .milliseconds(300))
    }

    // MARK: A call from an app without our API, on both servers

    func testAFullStateDirectoryMutesAndPausesNothingForAZoomCallThenBothOnceThereIsRoomOnPulseAudio() async throws {
        try await zoomCallWithoutRoom(.pulseAudio)
    }

    func testAFullStateDirectoryMutesAndPausesNothingForAZoomCallThenBothOnceThereIsRoomOnPipeWire() async throws {
        try await zoomCallWithoutRoom(.pipeWire)
    }

    /// A Zoom capture with mpv and another app playing: with the directory full, neither mpv is
    /// paused nor the app muted, and a kill -9 mid-call leaves both as they were. A new daemon
    /// with room does both for the next call and undoes both when it ends.
    private func zoomCallWithoutRoom(_ kind: AudioServerKind) async throws {
        try await startPulse(kind)
        let first = try await startDaemon(environment: serverVariables, wrapper: wrapper(.full))
        await waitForDaemonLog("connected to the audio server", timeout: .seconds(10))
        let mpv = try await startMPV()
        let (_, music) = try await startUnknownMusic()
        var capture = try startRecording("ZOOM VoiceEngine")
        await waitForDaemonLog("streams:", "not muted: the journal of changes cannot be written", timeout: .seconds(10))
        await waitForDaemonLog(mpv.busName, "not paused: the journal of changes cannot be written")
        try await assertKeeps(music.index, "the app is not muted", for: .milliseconds(400)) { !$0.muted }
        try await assertStays(mpv, "Playing", for: .milliseconds(100))
        first.signal(SIGKILL)
        try await waitUntil("the killed daemon's name is gone") { try await self.policyOwner() == nil }
        try await assertKeeps(music.index, "nothing to undo after the kill", for: .milliseconds(200)) { !$0.muted }
        try await assertStays(mpv, "Playing", for: .milliseconds(100))
        capture.stop()

        try await startStreamDaemon()
        try await waitForStatus("mpv followed") { $0.player(mpv.busName)?.status == "Playing" }
        capture = try startRecording("ZOOM VoiceEngine")
        try await waitForSinkInput("the app muted by the call") { $0.index == music.index && $0.muted }
        try await waitForStatus("mpv paused by the call") { $0.player(mpv.busName)?.status == "Paused" }
        capture.stop()
        try await waitForSinkInput("the app unmuted after the call") { $0.index == music.index && !$0.muted }
        try await waitForStatus("mpv plays again after the call") { $0.player(mpv.busName)?.status == "Playing" }
    }
}
