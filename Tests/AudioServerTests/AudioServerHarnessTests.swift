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
        let applied = await eventually(timeout: .seconds(5)) {
            (try? await first.entry())?["mute"] as? Bool == true
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

    // MARK: - Devices

    func testDevicesComeGoAndArePickedOnPulseAudio() async throws { try await devices(.pulseAudio) }
    func testDevicesComeGoAndArePickedOnPipeWire() async throws { try await devices(.pipeWire) }

    /// The null sink and source are the defaults; a sink added at run time plays what is sent to
    /// it (heard on its own monitor, not on the default sink's), can be picked as the default, and
    /// leaves again; the default source's mute toggles as the mic-mute key toggles it.
    private func devices(_ kind: AudioServerKind) async throws {
        let server = try await startServer(kind, bus: bus)
        defer { server.stop() }
        let defaultSink = try await server.defaultSink()
        XCTAssertEqual(defaultSink, server.sinkName)
        let defaultSource = try await server.defaultSource()
        XCTAssertEqual(defaultSource, server.sourceName)

        let module = try await server.addSink(named: "usb-dac")
        let sinks = try await server.names("sinks")
        XCTAssertTrue(sinks.contains("usb-dac"), "\(sinks)")
        let onDAC = try CaptureStream(on: server, device: "usb-dac.monitor")
        let onDefault = try CaptureStream(on: server)
        let stream = try PlayingStream(on: server, device: "usb-dac")
        _ = try await onDAC.waitForLoudness { $0.isClose(to: stream.expectedRMS, within: 0.05) }
        let elsewhere = try await onDefault.measure(.milliseconds(200))
        XCTAssertLessThan(elsewhere, 0.0005, "\(kind): nothing on the default sink")

        try await server.pactl("set-default-sink", "usb-dac")
        let picked = try await server.defaultSink()
        XCTAssertEqual(picked, "usb-dac")
        stream.stop()
        try await server.removeModule(module)
        let left = await eventually(timeout: .seconds(10)) {
            !((try? await server.names("sinks")) ?? ["usb-dac"]).contains("usb-dac")
        }
        XCTAssertTrue(left, "\(kind): the sink left")

        try await server.pactl("set-source-mute", "@DEFAULT_SOURCE@", "toggle")
        let muted = try await server.pactl("get-source-mute", server.sourceName)
        XCTAssertTrue(muted.contains("yes"), muted)
    }

    // MARK: - Start, crash, restart

    func testAServerStartedLaterIsFoundInTheRuntimeDirectoryOnPulseAudio() async throws { try await startedLater(.pulseAudio) }
    func testAServerStartedLaterIsFoundInTheRuntimeDirectoryOnPipeWire() async throws { try await startedLater(.pipeWire) }

    /// `startNow: false`: an empty runtime directory (no server, nothing answers), then the server
    /// comes up where a client without PULSE_SERVER looks.
    private func startedLater(_ kind: AudioServerKind) async throws {
        let server = try await startServer(kind, bus: bus, startNow: false)
        defer { server.stop() }
        XCTAssertFalse(server.isRunning)
        let contents = try FileManager.default.contentsOfDirectory(atPath: server.runtimeDirectory.path)
        XCTAssertEqual(contents, [], "\(kind): nothing in the runtime directory before the server")
        var environment = server.environment
        environment["PULSE_SERVER"] = nil
        await assertThrowsAsync(try await Pactl.run(["info"], environment: environment))
        try await server.start(timeout: .seconds(20))
        let info = try await Pactl.run(["info"], environment: environment)
        XCTAssertTrue(info.contains("Default Sink: \(server.sinkName)"), info)
    }

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

    private func comesBack(_ server: any TestAudioServer) async throws {
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
        let stream = try PlayingStream(on: server, role: "music")
        _ = try await Loudness.waitUntil(server) { $0.isClose(to: stream.expectedRMS, within: 0.05) }
        try await server.pactl("set-sink-input-volume", "\(try await stream.index())", "30%")
        if let pipeWire = server as? PipeWireServer {
            // Saved one second after the change; an exit before that forgets it.
            let saved = await eventually(timeout: .seconds(10)) {
                pipeWire.restoreStreamState()["Output/Audio:media.role:Music:channelVolumes"]?.hasPrefix("0.02") == true
            }
            XCTAssertTrue(saved, "\(pipeWire.restoreStreamState())")
        }
        stream.stop()

        server.terminate()
        XCTAssertFalse(server.isRunning)
        await assertThrowsAsync(try await server.pactl("info"))
        try await server.restart()
        // The same state directory: the role's volume is remembered across the restart.
        let capture = try CaptureStream(on: server)
        let next = try PlayingStream(on: server, role: "music")
        let lowered = next.expectedRMS * Loudness.amplitudeFactor(volumePercent: 30)
        _ = try await capture.waitForLoudness { $0.isClose(to: lowered, within: 0.1) }
    }

    private func assertThrowsAsync<T>(_ expression: @autoclosure () async throws -> T,
                                      file: StaticString = #filePath, line: UInt = #line) async {
        do {
            _ = try await expression()
            XCTFail("no error thrown", file: file, line: line)
        } catch {}
    }
}
