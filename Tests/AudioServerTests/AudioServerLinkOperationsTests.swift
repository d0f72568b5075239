import AudioServer
import Foundation
import Synchronization
import TestSupport
import XCTest

/// Volume and mute of other clients' streams, both directions, read back with pactl.
final class AudioServerLinkOperationsTests: BusTestCase {
    func testVolumeAndMuteAppliedPulseAudio() async throws { try await volumeAndMute(.pulseaudio) }
    func testVolumeAndMuteAppliedPipeWire() async throws { try await volumeAndMute(.pipewire) }

    private func volumeAndMute(_ kind: ServerKind) async throws {
        let server = try await TestAudioServer(kind, busAddress: bus.address)
        defer { server.stop() }
        let recorder = try LinkRecorder(socket: server.socketPath)
        defer { recorder.stop() }
        let player = try server.play(["application.name": "Jukebox", "media.role": "music"])
        defer { player.stop() }
        let recorderApp = try server.record(from: server.sinkName + ".monitor", ["application.name": "Taper"])
        defer { recorderApp.stop() }
        await recorder.waitFor("both streams") { !$0.streams(named: "Jukebox").isEmpty && !$0.streams(named: "Taper").isEmpty }
        guard let playback = recorder.link.inventory.streams(named: "Jukebox").first,
              let capture = recorder.link.inventory.streams(named: "Taper").first else { return }

        let ducked = ChannelVolume(uniform: 19_661, count: playback.volume.channels.count)  // 30 %
        let accepted = await complete { recorder.link.setVolume(playback.id, to: ducked, completion: $0) }
        XCTAssertTrue(accepted)
        let volumes = try await pactlVolumes(server, "sink-inputs", playback.id.index)
        XCTAssertEqual(volumes.count, 2)
        for value in volumes { XCTAssertEqual(Double(value), 19_661, accuracy: 700, "\(volumes)") }
        await recorder.waitFor("the inventory shows the duck") { inventory in
            inventory.streams[playback.id].map { abs($0.volume.level - 0.3) < 0.011 } ?? false
        }

        let muted = await complete { recorder.link.setMute(playback.id, true, completion: $0) }
        XCTAssertTrue(muted)
        let playbackMuted = try await pactlMute(server, "sink-inputs", playback.id.index)
        XCTAssertEqual(playbackMuted, true)
        await recorder.waitFor("the inventory shows the mute") { $0.streams[playback.id]?.isMuted == true }

        let captureMuted = await complete { recorder.link.setMute(capture.id, true, completion: $0) }
        XCTAssertTrue(captureMuted)
        let captureMuteState = try await pactlMute(server, "source-outputs", capture.id.index)
        XCTAssertEqual(captureMuteState, true)
        let captureVolume = await complete {
            recorder.link.setVolume(capture.id, to: ChannelVolume(uniform: 32_768, count: capture.volume.channels.count), completion: $0)
        }
        XCTAssertTrue(captureVolume)
        let captureVolumes = try await pactlVolumes(server, "source-outputs", capture.id.index)
        for value in captureVolumes { XCTAssertEqual(Double(value), 32_768, accuracy: 700, "\(captureVolumes)") }

        // A stream that is gone: the server says no.
        let gone = await complete { recorder.link.setMute(StreamID(.playback, 999_999), true, completion: $0) }
        XCTAssertFalse(gone)
    }

    func testOperationsFailAtOnceWithoutAServer() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mprisd-noserver-\(UUID().uuidString.prefix(8))")
        let recorder = try LinkRecorder(socket: directory.appendingPathComponent("pulse/native").path)
        defer { recorder.stop() }
        let result = Mutex<Bool?>(nil)
        recorder.link.setVolume(StreamID(.playback, 1), to: ChannelVolume(uniform: 100, count: 2)) { ok in result.withLock { $0 = ok } }
        XCTAssertEqual(result.withLock { $0 }, false, "completion(false) on the caller's thread, at once")
        recorder.link.setMute(StreamID(.capture, 1), true) { ok in result.withLock { $0 = ok } }
        XCTAssertEqual(result.withLock { $0 }, false)
    }

    private func complete(_ start: (@escaping AudioServerLink.Completion) -> Void) async -> Bool {
        await withCheckedContinuation { continuation in
            start { continuation.resume(returning: $0) }
        }
    }

    private func pactlObject(_ server: TestAudioServer, _ kind: String, _ index: UInt32) async throws -> [String: Any]? {
        try await Pactl.list(kind, environment: server.clientEnvironment).first { ($0["index"] as? Int) == Int(index) }
    }

    private func pactlVolumes(_ server: TestAudioServer, _ kind: String, _ index: UInt32) async throws -> [Int] {
        let volume = try await pactlObject(server, kind, index)?["volume"] as? [String: Any] ?? [:]
        return volume.values.compactMap { ($0 as? [String: Any])?["value"] as? Int }
    }

    private func pactlMute(_ server: TestAudioServer, _ kind: String, _ index: UInt32) async throws -> Bool? {
        try await pactlObject(server, kind, index)?["mute"] as? Bool
    }
}
