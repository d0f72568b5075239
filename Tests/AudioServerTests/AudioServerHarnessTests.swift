import Foundation
import TestSupport
import XCTest

/// The test harness's real streams on PulseAudio and on PipeWire: what a listener hears follows
/// the stream's volume and mute, the servers remember a role's mute, streams are found by their
/// properties, and many streams can exist at once.
final class AudioServerHarnessTests: BusTestCase {
    // MARK: - What a listener hears

    func testAPlayingStreamIsHeardOnPulseAudio() async throws { try await aPlayingStreamIsHeard(.pulseAudio) }
    func testAPlayingStreamIsHeardOnPipeWire() async throws { try await aPlayingStreamIsHeard(.pipeWire) }

    /// Silence before, the sine's level while it plays, silence again once it ends.
    private func aPlayingStreamIsHeard(_ kind: AudioServerKind) async throws {
        let server = try await startServer(kind, bus: bus)
        defer { server.stop() }
        let capture = try CaptureStream(on: server)
        try await capture.waitForFrames(CaptureStream.frames(in: Loudness.settle))
        let before = try await capture.measure(.milliseconds(200))
        XCTAssertLessThan(before, 0.001, "silence before any stream")

        let stream = try PlayingStream(on: server)
        let expected = stream.expectedRMS
        // A whole 300 ms at the sine's level (a window, not one take: an underrun on a loaded
        // machine is a gap in the stream, not a wrong level).
        let heard = try await capture.waitForLoudness(window: .milliseconds(300)) { $0.isClose(to: expected, within: 0.05) }
        XCTAssertEqual(heard, expected, accuracy: expected * 0.05, "\(kind): the sine at full volume")

        stream.stop()
        _ = try await capture.waitForLoudness { $0 < 0.001 }
    }

    func testVolumeAndMuteChangeWhatIsHeardOnPulseAudio() async throws { try await volumeAndMute(.pulseAudio) }
    func testVolumeAndMuteChangeWhatIsHeardOnPipeWire() async throws { try await volumeAndMute(.pipeWire) }

    /// 30 % volume lowers the level by 0.3³ (both servers' cubic scale), mute silences it, unmute
    /// brings the 30 % level back, 100 % the full one.
    private func volumeAndMute(_ kind: AudioServerKind) async throws {
        let server = try await startServer(kind, bus: bus)
        defer { server.stop() }
        let capture = try CaptureStream(on: server)
        let stream = try PlayingStream(on: server)
        let index = try await stream.index()
        let full = stream.expectedRMS
        _ = try await capture.waitForLoudness { $0.isClose(to: full, within: 0.05) }

        try await server.pactl("set-sink-input-volume", "\(index)", "30%")
        let info = try await stream.info()
        XCTAssertEqual(info?.volumePercent, 30)
        XCTAssertEqual(info?.muted, false)
        let lowered = full * Loudness.amplitudeFactor(volumePercent: 30)
        let heard30 = try await capture.waitForLoudness { $0.isClose(to: lowered, within: 0.1) }
        XCTAssertEqual(heard30 / full, 0.027, accuracy: 0.003, "\(kind): 30 % is 0.3³ in amplitude")

        try await server.pactl("set-sink-input-mute", "\(index)", "1")
        let mutedInfo = try await stream.info()
        XCTAssertEqual(mutedInfo?.muted, true)
        _ = try await capture.waitForLoudness { $0 < 0.0005 }
        let muted = try await capture.measure(.milliseconds(300))
        XCTAssertLessThan(muted, 0.0005, "\(kind): muted")

        try await server.pactl("set-sink-input-mute", "\(index)", "0")
        _ = try await capture.waitForLoudness { $0.isClose(to: lowered, within: 0.1) }
        try await server.pactl("set-sink-input-volume", "\(index)", "100%")
        _ = try await capture.waitForLoudness { $0.isClose(to: full, within: 0.05) }
        XCTAssertTrue(stream.isRunning, stream.log)
    }

    func testAMutedRoleStaysMutedForTheNextStreamOnPulseAudio() async throws { try await restoredMute(.pulseAudio) }
    func testAMutedRoleStaysMutedForTheNextStreamOnPipeWire() async throws { try await restoredMute(.pipeWire) }

    /// Both servers remember mute per media.role (module-stream-restore, WirePlumber's
    /// restore-stream): the trap a daemon that mutes streams must not leave behind.
    private func restoredMute(_ kind: AudioServerKind) async throws {
        let server = try await startServer(kind, bus: bus)
        defer { server.stop() }
        let first = try PlayingStream(on: server, role: "music")
        let index = try await first.index()
        try await server.pactl("set-sink-input-mute", "\(index)", "1")
        let applied = await eventually(timeout: .seconds(5)) {
            (try? await first.info())??.muted == true
        }
        XCTAssertTrue(applied)
        if let pipeWire = server as? PipeWireServer {
            // WirePlumber, another process, learns of the change on its own schedule: the stream
            // must not end before it did (it has once it saved the role's state).
            let saved = await eventually(timeout: .seconds(10)) {
                pipeWire.restoreStreamState()["Output/Audio:media.role:Music:mute"] == "true"
            }
            XCTAssertTrue(saved, "\(pipeWire.restoreStreamState())")
        }
        first.stop()

        let capture = try CaptureStream(on: server)
        let second = try PlayingStream(on: server, role: "music")
        _ = try await second.index()
        let info = try await second.info()
        XCTAssertEqual(info?.muted, true, "\(kind): the next music stream starts muted")
        try await capture.waitForFrames(CaptureStream.frames(in: .milliseconds(600)))
        let heard = try await capture.measure(.milliseconds(300))
        XCTAssertLessThan(heard, 0.0005, "\(kind): and is not heard")

        let other = try PlayingStream(on: server, role: "event")
        _ = try await capture.waitForLoudness { $0.isClose(to: other.expectedRMS, within: 0.05) }
    }

    // MARK: - Streams found by their properties

    func testStreamsAreFoundByTheirPropertiesOnPulseAudio() async throws { try await streamsFound(.pulseAudio) }
    func testStreamsAreFoundByTheirPropertiesOnPipeWire() async throws { try await streamsFound(.pipeWire) }

    private func streamsFound(_ kind: AudioServerKind) async throws {
        let server = try await startServer(kind, bus: bus)
        defer { server.stop() }
        let music = try PlayingStream(on: server, role: "music", applicationName: "Harness Music")
        let call = try PlayingStream(on: server, role: "phone", applicationName: "Harness Call")
        let microphone = try CaptureStream(on: server, device: server.monitorName, role: "phone",
                                           applicationName: "Harness Mic")
        let musicIndex = try await music.index()
        let callIndex = try await call.index()
        XCTAssertNotEqual(musicIndex, callIndex)
        let inputs = try await server.list("sink-inputs")
        let byIndex = Dictionary(inputs.compactMap { entry in
            (entry["index"] as? NSNumber).map { ($0.intValue, entry["properties"] as? [String: Any] ?? [:]) }
        }) { first, _ in first }
        XCTAssertEqual(byIndex[musicIndex]?["media.role"] as? String, "music")
        XCTAssertEqual(byIndex[musicIndex]?["application.name"] as? String, "Harness Music")
        XCTAssertEqual(byIndex[callIndex]?["media.role"] as? String, "phone")

        let captureIndex = try await microphone.index()
        let outputs = try await server.list("source-outputs")
        let capture = outputs.first { ($0["index"] as? NSNumber)?.intValue == captureIndex }
        let properties = capture?["properties"] as? [String: Any]
        XCTAssertEqual(properties?["application.name"] as? String, "Harness Mic")
        XCTAssertEqual(properties?["media.role"] as? String, "phone")

        call.stop()
        let gone = await eventually(timeout: .seconds(10)) {
            let inputs = (try? await server.list("sink-inputs")) ?? []
            return !inputs.contains { ($0["index"] as? NSNumber)?.intValue == callIndex }
        }
        XCTAssertTrue(gone, "a stopped stream leaves the server's list")
    }

    func testANativePipeWireStreamIsFoundAndHeard() async throws {
        let server = try await startServer(.pipeWire, bus: bus)
        defer { server.stop() }
        let capture = try CaptureStream(on: server)
        let stream = try PlayingStream(on: server, role: "Music", client: .pwPlay)
        let index = try await stream.index()
        _ = try await capture.waitForLoudness { $0.isClose(to: stream.expectedRMS, within: 0.05) }
        try await server.pactl("set-sink-input-mute", "\(index)", "1")
        _ = try await capture.waitForLoudness { $0 < 0.0005 }
    }

    // MARK: - Many streams

    func testLoopbackStreamsNeedNoClientOnPulseAudio() async throws { try await loopbacks(.pulseAudio, count: 150) }
    func testLoopbackStreamsNeedNoClientOnPipeWire() async throws { try await loopbacks(.pipeWire, count: 10) }

    /// More loopback streams than PulseAudio takes clients (64) (150 there: more than its default
    /// descriptor limit allows), each listed with its properties,
    /// gone when unloaded.
    private func loopbacks(_ kind: AudioServerKind, count: Int) async throws {
        let server = try await startServer(kind, bus: bus)
        defer { server.stop() }
        var made: [(module: Int, id: String)] = []
        for _ in 0..<count {
            made.append(try await server.addLoopbackStream(properties: ["media.role": "music", "application.name": "Loop"]))
        }
        let indices = try await server.sinkInputIndices(ids: Set(made.map(\.id)))
        XCTAssertEqual(indices.count, count, "\(kind): every loopback is a sink input")
        let roles = try await server.list("sink-inputs").compactMap { ($0["properties"] as? [String: Any])?["media.role"] as? String }
        XCTAssertEqual(roles.filter { $0 == "music" }.count, count)
        try await server.removeModule(made[0].module)
        let left = try await server.sinkInputIndices(ids: [made[0].id])
        XCTAssertEqual(left, [:], "\(kind): unloading the module ends its stream")
    }

    func testManyStreamsAreListedAtOnceOnPipeWire() async throws {
        let server = try await startServer(.pipeWire, bus: bus)
        defer { server.stop() }
        let streams = try (0..<20).map { _ in try PlayingStream(on: server, seconds: 20) }
        let indices = try await PlayingStream.indices(of: streams, on: server)
        XCTAssertEqual(Set(indices.values).count, 20)
    }
}
