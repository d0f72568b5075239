import Foundation
import TestSupport
import XCTest

/// A program that does not speak our API (`paplay` under `mprisd run`) is ducked and interrupted
/// through its audio-server stream: its volume falls to the duck ratio and comes back exactly,
/// a volume the user chose while ducked stays, a call mutes it and hanging up unmutes it — on
/// real PulseAudio, heard on the null sink's monitor.
final class StreamDuckTests: StreamTestCase {
    func testADuckedRunHasItsStreamLoweredAndRestoredExactlyOnPulseAudio() async throws { try await aDuckedRunHasItsStreamLoweredAndRestoredExactly(.pulseAudio) }
    func testADuckedRunHasItsStreamLoweredAndRestoredExactlyOnPipeWire() async throws { try await aDuckedRunHasItsStreamLoweredAndRestoredExactly(.pipeWire) }

    private func aDuckedRunHasItsStreamLoweredAndRestoredExactly(_ kind: AudioServerKind) async throws {
        try await startPulse(kind)
        try await startStreamDaemon()
        let (_, stream) = try await startMusic()
        let user: UInt32 = 52_429  // 80 %
        try await setVolume(stream.index, raw: user)
        try await waitForSinkInput("the user's volume") { $0.index == stream.index && $0.volumes.allSatisfy { $0 == user } }
        let loud = try await waitForLevel("music is heard") { $0 > 0.02 }

        let ducker = try startDucker()
        let ducked = try await waitForSinkInput("the stream ducked to 0.3 × the user's volume") {
            $0.index == stream.index && $0.volumes.allSatisfy { $0 == Self.ducked(user) }
        }
        XCTAssertFalse(ducked.muted)
        try await waitForLevel("ducked music is much quieter (was \(loud))") { $0 >= 0 && $0 < loud * 0.2 }
        await waitForDaemonLog("ducked (user had")
        // `mprisd status` says which session the stream belongs to and what the daemon does to it.
        let status = try await mprisd(["status", "--json"], environment: serverVariables)
        XCTAssertEqual(status.status, 0, status.stderr)
        let document = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
        let streams = document?["streams"] as? [[String: Any]] ?? []
        let shown = streams.first { ($0["index"] as? NSNumber)?.uint32Value == stream.index }
        XCTAssertNotNil(shown?["session"] as? String, "the stream is paired with the run's session: \(status.stdout)")
        XCTAssertTrue((shown?["action"] as? String)?.contains("ducked") == true, "the duck is shown: \(status.stdout)")

        ducker.kill()
        try await waitForSinkInput("the user's volume back exactly") {
            $0.index == stream.index && $0.volumes.allSatisfy { $0 == user }
        }
        try await waitForLevel("music is as loud as before") { $0 > loud * 0.7 }
        XCTAssertFalse(FileManager.default.fileExists(atPath: journalPath), "nothing left in the journal once undone")
    }

    func testANewStreamOfADuckedSessionIsDuckedAtOnceOnPulseAudio() async throws { try await aNewStreamOfADuckedSessionIsDuckedAtOnce(.pulseAudio) }
    func testANewStreamOfADuckedSessionIsDuckedAtOnceOnPipeWire() async throws { try await aNewStreamOfADuckedSessionIsDuckedAtOnce(.pipeWire) }

    /// The session's program is a shell whose children play (the stream's process is a
    /// grandchild of `mprisd run`): the second stream starts while the session is ducked.
    private func aNewStreamOfADuckedSessionIsDuckedAtOnce(_ kind: AudioServerKind) async throws {
        try await startPulse(kind)
        try await startStreamDaemon()
        let first = try track("first.wav", seconds: 60)
        let second = try track("second.wav", seconds: 60)
        let go = path("go")
        let script = "paplay --property=media.role=music '\(first)' & "
            + "while [ ! -e '\(go)' ]; do sleep 0.1; done; paplay --property=media.role=game '\(second)'; wait"
        _ = try run(["--category", "playback", "--name", "shell", "--", "/bin/sh", "-c", script], environment: serverVariables)
        let stream = try await waitForSinkInput("the first stream") { $0.role == "music" && $0.processID != nil }
        _ = try startDucker()
        try await waitForSinkInput("the first stream ducked") {
            $0.index == stream.index && $0.volumes.allSatisfy { $0 == Self.ducked(Self.norm) }
        }
        XCTAssertTrue(FileManager.default.createFile(atPath: go, contents: nil))
        let next = try await waitForSinkInput("the second stream ducked") {
            $0.role == "game" && $0.volumes.allSatisfy { $0 == Self.ducked(Self.norm) }
        }
        try await assertKeeps(next.index, "it stays ducked") { $0.volumes.allSatisfy { $0 == Self.ducked(Self.norm) } }
    }

    /// On PipeWire only: the test PulseAudio pins its null sink's latency with a module-loopback
    /// stream, whose rate adjustments are a sink-input `change` event about once a second
    /// (measured with `pactl subscribe`) — server events the daemon must read.
    func testTheDaemonDuckingAPlayingStreamWakesUpZeroTimesOnPipeWire() async throws { try await idleWhileDucking(.pipeWire) }

    /// A stream playing, ducked, and nothing else happening: the daemon (its link, its stream
    /// policy, every other thread) sleeps.
    private func idleWhileDucking(_ kind: AudioServerKind) async throws {
        try await startPulse(kind)
        let daemon = try await startStreamDaemon()
        let (_, stream) = try await startMusic()
        _ = try startDucker()
        try await waitForSinkInput("the stream ducked") {
            $0.index == stream.index && $0.volumes.allSatisfy { $0 == Self.ducked(Self.norm) }
        }
        // Time is the subject here: wake-ups counted over two idle seconds, after half a second
        // for the last replies to land (BENCHMARKS.md, idle wake-ups).
        try await Task.sleep(for: .milliseconds(500))
        let before = daemon.contextSwitches()
        try await Task.sleep(for: .seconds(2))
        let after = daemon.contextSwitches()
        XCTAssertEqual(after - before, 0, "the daemon woke up while nothing happened\n\(daemon.stderr)")
    }

    func testAVolumeTheUserChoseWhileDuckedStaysOnPulseAudio() async throws { try await aVolumeTheUserChoseWhileDuckedStays(.pulseAudio) }
    func testAVolumeTheUserChoseWhileDuckedStaysOnPipeWire() async throws { try await aVolumeTheUserChoseWhileDuckedStays(.pipeWire) }

    private func aVolumeTheUserChoseWhileDuckedStays(_ kind: AudioServerKind) async throws {
        try await startPulse(kind)
        try await startStreamDaemon()
        let (_, stream) = try await startMusic()
        let ducker = try startDucker()
        try await waitForSinkInput("the stream ducked") {
            $0.index == stream.index && $0.volumes.allSatisfy { $0 == Self.ducked(Self.norm) }
        }
        // A user's change comes once the server settled the new stream (its first second is the
        // server's: StreamPolicy.serverSettling, StreamSettlingTests). Time is the subject here:
        // the daemon runs on real time; the window's edges are StreamSettlingTests', on a VirtualClock.
        try await Task.sleep(for: StreamSettlingWindow.seconds)
        let chosen: UInt32 = 32_768
        try await setVolume(stream.index, raw: chosen)
        await waitForDaemonLog("keeps volume", "the user chose while ducked")
        ducker.kill()
        await waitForDaemonLog("ducker", "removed")
        try await assertKeeps(stream.index, "the user's choice stays after the ducking") { $0.volumes.allSatisfy { $0 == chosen } }
    }

    func testACallMutesTheStreamAndHangingUpUnmutesItOnPulseAudio() async throws { try await aCallMutesTheStreamAndHangingUpUnmutesIt(.pulseAudio) }
    func testACallMutesTheStreamAndHangingUpUnmutesItOnPipeWire() async throws { try await aCallMutesTheStreamAndHangingUpUnmutesIt(.pipeWire) }

    private func aCallMutesTheStreamAndHangingUpUnmutesIt(_ kind: AudioServerKind) async throws {
        try await startPulse(kind)
        try await startStreamDaemon()
        let (_, stream) = try await startMusic()
        let loud = try await waitForLevel("music is heard") { $0 > 0.02 }
        // Read once heard: PipeWire lists a new stream before its volume is set ([0, 0] at first).
        let before = try await waitForSinkInput("the stream as heard") { $0.index == stream.index && $0.volumes.allSatisfy { $0 > 0 } }
        let call = try startCall()
        try await waitForSinkInput("the stream muted by the call") { $0.index == stream.index && $0.muted }
        try await waitForLevel("nothing is heard during the call") { $0 >= 0 && $0 < 0.001 }
        call.kill()
        let back = try await waitForSinkInput("unmuted after the call") { $0.index == stream.index && !$0.muted }
        XCTAssertEqual(back.volumes, before.volumes, "the volume was never touched")
        try await waitForLevel("music is heard again") { $0 > loud * 0.7 }
    }

    func testARecordingStreamIsLeftAloneDuringACallOnPulseAudio() async throws { try await aRecordingStreamIsLeftAloneDuringACall(.pulseAudio) }
    func testARecordingStreamIsLeftAloneDuringACallOnPipeWire() async throws { try await aRecordingStreamIsLeftAloneDuringACall(.pipeWire) }

    private func aRecordingStreamIsLeftAloneDuringACall(_ kind: AudioServerKind) async throws {
        try await startPulse(kind)
        try await startStreamDaemon()
        // A recorder under `mprisd run` (a session that is interrupted by the call).
        let recorder = try run(["--category", "playback", "--name", "recorder", "--", "parec", "--device=\(pulse?.monitorName ?? "")",
                                path("recorded.raw")], environment: serverVariables)
        try await waitForStatus("the recorder's session is active") { $0.session(named: "recorder")?.active == true }
        let found = await eventually(timeout: .seconds(10)) {
            let outputs = (try? await Pactl.list("source-outputs", environment: self.pulseEnvironment)) ?? []
            return outputs.contains { (($0["properties"] as? [String: Any])?["application.name"] as? String) == "parec" }
        }
        XCTAssertTrue(found, "parec records")
        _ = try startCall()
        try await waitForStatus("the recorder is interrupted") { $0.session(named: "recorder")?.interrupted == true }
        let outputs = try await Pactl.list("source-outputs", environment: pulseEnvironment)
        let parec = outputs.first { (($0["properties"] as? [String: Any])?["application.name"] as? String) == "parec" }
        XCTAssertEqual(parec?["mute"] as? Bool, false, "a capture stream is never muted")
        XCTAssertFalse(daemon?.stderr.contains("muted") ?? true, daemon?.stderr ?? "")
        XCTAssertTrue(recorder.isRunning)
    }

    var journalPath: String { userDirectories["XDG_STATE_HOME", default: ""] + "/mprisd/journal" }
}

/// The daemon's `StreamPolicy.defaultServerSettling`, plus a margin (MprisdTests runs the binary
/// and does not link the daemon's module).
enum StreamSettlingWindow {
    static let seconds: Duration = .milliseconds(1_200)
}
