import Foundation
import TestSupport
import XCTest

/// An MPRIS player whose stream the daemon knows is ducked through that stream — never through
/// its `Volume`, which may be read-only (Set fails), ignored (Spotify), or missing — and restored
/// exactly; its interruption stays a `Pause` (its stream is never muted). The player is a tiny
/// python3-dbus MPRIS service playing through a `paplay` child (Tests/Fixtures/StreamPlayer).
final class StreamPlayerFallbackTests: StreamTestCase {
    func testAPlayerWithAReadOnlyVolumeIsDuckedThroughItsStreamOnPulseAudio() async throws {
        try await duckedThroughItsStream(.pulseAudio, mode: "readonly")
    }
    func testAPlayerWithAReadOnlyVolumeIsDuckedThroughItsStreamOnPipeWire() async throws {
        try await duckedThroughItsStream(.pipeWire, mode: "readonly")
    }
    func testAPlayerThatIgnoresVolumeIsDuckedThroughItsStreamOnPulseAudio() async throws {
        try await duckedThroughItsStream(.pulseAudio, mode: "ignored")
    }
    func testAPlayerWithoutVolumeIsDuckedThroughItsStreamOnPulseAudio() async throws {
        try await duckedThroughItsStream(.pulseAudio, mode: "missing")
    }

    func testSuchAPlayerIsStillPausedByACallNotMuted() async throws {
        try await startPulse(.pulseAudio)
        try await startStreamDaemon()
        let (busName, stream) = try await startStreamPlayer(mode: "readonly")
        let ducker = try startDucker()
        try await waitForSinkInput("ducked through its stream") {
            $0.index == stream.index && $0.volumes.allSatisfy { $0 == Self.ducked(Self.norm) }
        }
        ducker.kill()
        try await waitForSinkInput("restored") { $0.index == stream.index && $0.volumes.allSatisfy { $0 == Self.norm } }
        _ = try startCall()
        try await waitForStatus("the call pauses the player") { $0.player(busName)?.status == "Paused" }
        try await assertKeeps(stream.index, "its stream is not muted: the player was paused") { !$0.muted }
    }

    private func duckedThroughItsStream(_ kind: AudioServerKind, mode: String) async throws {
        try await startPulse(kind)
        try await startStreamDaemon()
        let (_, stream) = try await startStreamPlayer(mode: mode)
        let ducker = try startDucker()
        await waitForDaemonLog("ducked through its audio-server streams")
        try await waitForSinkInput("the player's stream ducked to 0.3") {
            $0.index == stream.index && $0.volumes.allSatisfy { $0 == Self.ducked(Self.norm) }
        }
        ducker.kill()
        try await waitForSinkInput("its volume back exactly") {
            $0.index == stream.index && $0.volumes.allSatisfy { $0 == Self.norm }
        }
    }

    /// Starts the player; returns its bus name and its stream once the daemon tracks it playing.
    private func startStreamPlayer(mode: String) async throws -> (String, SinkInput) {
        let name = "streamplayer"
        let busName = "org.mpris.MediaPlayer2." + name
        let file = try track("player.wav", seconds: 60)
        let script = Repository.path("Tests/Fixtures/FakePlayer/fake_player.py")
        let player = try BackgroundProcess("/usr/bin/python3", [script, name, "Playing", "stream=\(file)", "role=music", "volume=\(mode)"],
                                           environment: pulseEnvironment)
        addTeardownBlock { player.stop() }
        try await waitForStatus("the daemon tracks the player playing", timeout: .seconds(10)) { status in
            status.players.contains { $0.busName == busName && $0.status == "Playing" }
        }
        let stream = try await waitForSinkInput("the player's stream") { $0.app == "paplay" && $0.role == "music" }
        return (busName, stream)
    }
}
