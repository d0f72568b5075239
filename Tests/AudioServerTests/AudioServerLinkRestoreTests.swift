import AudioServer
import Foundation
import TestSupport
import XCTest

/// The servers' stream-restore databases through ext-stream-restore: what the daemon writes for a
/// stream's key is what the next stream of that key starts with, on both servers.
final class AudioServerLinkRestoreTests: BusTestCase {
    func testRestoreEntryAppliesToTheNextStreamPulseAudio() async throws { try await restoreEntry(.pulseaudio) }
    func testRestoreEntryAppliesToTheNextStreamPipeWire() async throws { try await restoreEntry(.pipewire) }

    private func restoreEntry(_ kind: ServerKind) async throws {
        let server = try await TestAudioServer(kind, busAddress: bus.address)
        defer { server.stop() }
        let recorder = try LinkRecorder(socket: server.socketPath)
        defer { recorder.stop() }
        let link = recorder.link

        let first = try server.play(["application.name": "Radio", "media.role": "music"])
        defer { first.stop() }
        await recorder.waitFor("the first Radio stream") { !$0.streams(named: "Radio").isEmpty }
        guard let stream = link.inventory.streams(named: "Radio").first else { return }
        XCTAssertEqual(AudioServerLink.restoreKey(of: stream), "sink-input-by-media-role:music")
        var computed = stream
        computed.properties["module-stream-restore.id"] = nil
        XCTAssertEqual(computed.restoreKey, "sink-input-by-media-role:music", "computed as the server does")
        first.stop()
        await recorder.waitFor("the first stream gone") { $0.streams(named: "Radio").isEmpty }

        // What a daemon killed mid-duck leaves: the ducked volume and a mute, saved for the key.
        let ducked = ChannelVolume(uniform: 19_661, count: 2)
        let wrote = await complete { link.writeRestoreEntry("sink-input-by-media-role:music", volume: ducked, muted: true, completion: $0) }
        XCTAssertTrue(wrote)
        let other = await complete { link.writeRestoreEntry("sink-input-by-media-role:phone", volume: ducked, muted: false, completion: $0) }
        XCTAssertTrue(other)
        await waitForEntry(link, "sink-input-by-media-role:music") { $0?.isMuted == true && $0?.volume == ducked }

        let second = try server.play(["application.name": "Radio", "media.role": "music"])
        defer { second.stop() }
        await recorder.waitFor("the next music stream starts ducked and muted") { inventory in
            inventory.streams(named: "Radio").contains { $0.isMuted && abs($0.volume.level - 0.3) < 0.011 }
        }
        second.stop()
        await recorder.waitFor("the second stream gone") { $0.streams(named: "Radio").isEmpty }

        // The repair: the user's value written back; the other key stays as it was.
        let norm = ChannelVolume(uniform: ChannelVolume.norm, count: 2)
        let repaired = await complete { link.writeRestoreEntry("sink-input-by-media-role:music", volume: norm, muted: false, completion: $0) }
        XCTAssertTrue(repaired)
        await waitForEntry(link, "sink-input-by-media-role:music") { $0?.isMuted == false && $0?.volume == norm }
        await waitForEntry(link, "sink-input-by-media-role:phone") { $0?.volume == ducked }
        let third = try server.play(["application.name": "Radio", "media.role": "music"])
        defer { third.stop() }
        await recorder.waitFor("the next music stream starts at the user's volume") { inventory in
            inventory.streams(named: "Radio").contains { !$0.isMuted && abs($0.volume.level - 1) < 0.011 }
        }
    }

    func testRestoreReadFailsAtOnceWithoutAServer() async throws {
        let recorder = try LinkRecorder(socket: "/nonexistent/mprisd-test/pulse/native")
        defer { recorder.stop() }
        let result = await withCheckedContinuation { continuation in
            recorder.link.readRestoreEntries { continuation.resume(returning: $0) }
        }
        guard case .failure = result else { return XCTFail("read without a server: \(result)") }
        let wrote = await complete { recorder.link.writeRestoreEntry("k", volume: nil, muted: true, completion: $0) }
        XCTAssertFalse(wrote)
    }

    /// Waits until the entry for `key` satisfies `condition` (pipewire-pulse shows a write only
    /// once WirePlumber stored it).
    private func waitForEntry(_ link: AudioServerLink, _ key: String, file: StaticString = #filePath, line: UInt = #line,
                              _ condition: @escaping @Sendable (RestoreEntry?) -> Bool) async {
        var last: Result<RestoreEntry?, AudioServerError>?
        let held = await eventually(timeout: .seconds(20)) {
            let result = await withCheckedContinuation { continuation in
                link.readRestoreEntry(key) { continuation.resume(returning: $0) }
            }
            last = result
            return (try? result.get()).map(condition) ?? false
        }
        if !held { XCTFail("restore entry \(key): \(String(describing: last))", file: file, line: line) }
    }

    private func complete(_ start: (@escaping AudioServerLink.Completion) -> Void) async -> Bool {
        await withCheckedContinuation { continuation in start { continuation.resume(returning: $0) } }
    }
}
