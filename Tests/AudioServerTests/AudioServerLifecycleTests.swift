import Foundation
import TestSupport
import XCTest

/// The test harness's real servers themselves, on PulseAudio and on PipeWire: they start where
/// clients look, devices come and go, and they come back in the same directories (and with the
/// same memory) after a crash or an orderly exit.
final class AudioServerLifecycleTests: BusTestCase {
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
