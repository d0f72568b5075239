import Foundation
import TestSupport
import XCTest

/// The test harness's real servers and streams themselves, on PulseAudio and on PipeWire: what a
/// listener hears follows the stream's volume and mute, streams are found by their properties,
/// and the servers come back in the same directories after a crash or an orderly exit.
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
        _ = try await capture.waitForLoudness { $0.isClose(to: expected, within: 0.05) }
        let heard = try await capture.measure(.milliseconds(300))
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
        let lowered = full * Loudness.amplitudeFactor(volumePercent: 30)
        let heard30 = try await capture.waitForLoudness { $0.isClose(to: lowered, within: 0.1) }
        XCTAssertEqual(heard30 / full, 0.027, accuracy: 0.003, "\(kind): 30 % is 0.3³ in amplitude")

        try await server.pactl("set-sink-input-mute", "\(index)", "1")
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
        // The server stores it on its own schedule; the stream must not end before it did.
        let stored = await eventually(timeout: .seconds(5)) {
            (try? await first.entry())?["mute"] as? Bool == true
        }
        XCTAssertTrue(stored)
        try await Task.sleep(for: .milliseconds(300))
        first.stop()

        let capture = try CaptureStream(on: server)
        let second = try PlayingStream(on: server, role: "music")
        _ = try await second.index()
        let entry = try await second.entry()
        XCTAssertEqual(entry?["mute"] as? Bool, true, "\(kind): the next music stream starts muted")
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

    // MARK: - Start, crash, restart

    func testPipeWireStartsWithTheNullSinkAsDefault() async throws {
        let server = try await PipeWireServer(busAddress: bus.address)
        defer { server.stop() }
        let info = try await server.pactl("info")
        XCTAssertTrue(info.contains("on PipeWire"), info)
        XCTAssertTrue(info.contains("Default Sink: \(PipeWireServer.sinkName)"), info)
        XCTAssertEqual(server.pulseSocket, server.runtimeDirectory.appendingPathComponent("pulse/native").path)
    }

    func testPulseAudioListensWhereClientsLookByDefault() async throws {
        let server = try await PulseServer(restoreStreams: true, socketInRuntimeDirectory: true)
        defer { server.stop() }
        XCTAssertEqual(server.socketPath, server.runtimeDirectory.appendingPathComponent("pulse/native").path)
        // No PULSE_SERVER: libpulse finds it through XDG_RUNTIME_DIR alone.
        var environment = server.environment
        environment["PULSE_SERVER"] = nil
        let modules = try await Pactl.run(["list", "short", "modules"], environment: environment)
        XCTAssertTrue(modules.contains("module-stream-restore"), modules)
    }

    func testPipeWireComesBackInTheSameDirectoriesAfterAKillAndAfterAnOrderlyExit() async throws {
        try await comesBack(try await startServer(.pipeWire, bus: bus))
    }

    func testPulseAudioComesBackInTheSameDirectoriesAfterAKillAndAfterAnOrderlyExit() async throws {
        try await comesBack(try await startServer(.pulseAudio, bus: bus))
    }

    private func comesBack(_ server: any TestSupport.TestAudioServer) async throws {
        defer { server.stop() }
        let socket = server.runtimeDirectory.appendingPathComponent("pulse/native").path
        server.kill()
        XCTAssertFalse(server.isRunning)
        // A crash leaves the socket file behind, and nobody answers on it.
        XCTAssertTrue(FileManager.default.fileExists(atPath: socket))
        XCTAssertFalse(UnixSocket.acceptsConnections(at: socket))
        await assertThrowsAsync(try await server.pactl("info"))

        try await server.start(timeout: .seconds(20))
        XCTAssertTrue(server.isRunning)
        let sink = try await server.pactl("get-default-sink")
        XCTAssertEqual(sink.trimmingCharacters(in: .whitespacesAndNewlines), server.sinkName, server.log)
        let stream = try PlayingStream(on: server)
        _ = try await Loudness.waitUntil(server) { $0.isClose(to: stream.expectedRMS, within: 0.05) }
        stream.stop()

        server.terminate()
        XCTAssertFalse(server.isRunning)
        await assertThrowsAsync(try await server.pactl("info"))
        try await server.restart()
        let info = try await server.pactl("info")
        XCTAssertTrue(info.contains("Server Name"), info)
    }

    private func assertThrowsAsync<T>(_ expression: @autoclosure () async throws -> T,
                                      file: StaticString = #filePath, line: UInt = #line) async {
        do {
            _ = try await expression()
            XCTFail("no error thrown", file: file, line: line)
        } catch {}
    }
}
