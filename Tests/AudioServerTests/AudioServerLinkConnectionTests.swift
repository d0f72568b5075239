import AudioServer
import Foundation
import TestSupport
import XCTest

/// No server at start, a server that crashes and comes back: the link waits with inotify, never
/// creates the server's runtime directory, says so once, and reads everything afresh.
final class AudioServerLinkConnectionTests: BusTestCase {
    func testAbsentAtStartThenServerStartsPulseAudio() async throws {
        let server = try await startServer(.pulseAudio, bus: bus, startNow: false)
        defer { server.stop() }
        try await absentThenStarts(server)
    }

    func testAbsentAtStartThenServerStartsPipeWire() async throws {
        let server = try await startServer(.pipeWire, bus: bus)
        defer { server.stop() }
        // Back to a desktop before its audio server: no process, no `$XDG_RUNTIME_DIR/pulse`.
        server.kill()
        try FileManager.default.removeItem(at: server.runtimeDirectory.appendingPathComponent("pulse"))
        try await absentThenStarts(server)
    }

    private func absentThenStarts(_ server: any TestAudioServer) async throws {
        let pulseDirectory = server.runtimeDirectory.appendingPathComponent("pulse").path
        XCTAssertFalse(FileManager.default.fileExists(atPath: pulseDirectory))
        let recorder = try LinkRecorder(socket: server.pulseSocketPath)
        defer { recorder.stop() }
        await recorder.waitFor("absence logged", { _ in !recorder.logLines.isEmpty })
        XCTAssertNotNil(recorder.link.absenceReason)
        XCTAssertFalse(recorder.link.isConnected)
        XCTAssertEqual(recorder.link.inventory, AudioInventory())
        XCTAssertFalse(FileManager.default.fileExists(atPath: pulseDirectory), "the link created the server's runtime directory")

        try await server.start(timeout: .seconds(20))
        await recorder.waitForChanges("connected") { $0.contains { $0.kind == .connected } }
        XCTAssertNil(recorder.link.absenceReason)
        // A pipewire-pulse that has just started may have no default sink yet (WirePlumber picks
        // it a moment later; the link reads it then): waited for, not asserted at the connection.
        // Waited for as long as the link itself keeps asking (`LinkCore.defaultCheckDelays`).
        await recorder.waitFor("the default sink known", timeout: .seconds(65)) { $0.defaultSink == server.sinkName }
        XCTAssertEqual(recorder.link.inventory.defaultSink, server.sinkName)
        XCTAssertEqual(recorder.changes.first?.previous, AudioInventory())
        XCTAssertEqual(recorder.logLines.count, 2, "one line for the absence, one for the connection: \(recorder.logLines)")
        XCTAssertFalse(server.log.contains("File exists"), server.log)
    }

    func testADefaultOurViewNeverNamesIsLearntFromAFreshClientPulseAudio() async throws {
        try await defaultFromAFreshClient(.pulseAudio)
    }

    func testADefaultOurViewNeverNamesIsLearntFromAFreshClientPipeWire() async throws {
        try await defaultFromAFreshClient(.pipeWire)
    }

    /// Issue 24 #7: a pipewire-pulse client that missed WirePlumber's choice is told
    /// "@DEFAULT_SINK@" for good while every new client is told the sink. The link (whose own view
    /// is made to name no default here) asks a fresh client, follows the defaults it names as they
    /// change and as their devices go, and leaves no such client behind.
    private func defaultFromAFreshClient(_ kind: AudioServerKind) async throws {
        let server = try await startServer(kind, bus: bus)
        defer { server.stop() }
        let recorder = try LinkRecorder(address: .socket(path: server.pulseSocketPath), ownViewHasNoDefaults: true)
        defer { recorder.stop() }
        await recorder.waitFor("the default sink known from a fresh client") { $0.defaultSink == server.sinkName }
        let module = try await server.pactl("load-module", "module-null-sink", "sink_name=hdmi")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        await recorder.waitFor("hdmi appears") { $0.device(.sink, named: "hdmi") != nil }
        try await server.pactl("set-default-sink", "hdmi")
        await recorder.waitFor("the new default followed") { $0.defaultSink == "hdmi" }
        try await server.pactl("unload-module", module)
        await recorder.waitFor("back to the sink left") { $0.defaultSink == server.sinkName }
        let gone = await eventually(timeout: .seconds(10)) {
            let clients = (try? await server.pactl("list", "clients")) ?? "mprisd (default devices)"
            return !clients.contains("mprisd (default devices)")
        }
        XCTAssertTrue(gone, "the fresh client disconnects once it has answered")
        XCTAssertEqual(recorder.logLines.count, 1, "one line, for the connection: \(recorder.logLines)")
    }

    func testKilledAndRestartedPulseAudio() async throws { try await killedAndRestarted(.pulseAudio) }
    func testKilledAndRestartedPipeWire() async throws { try await killedAndRestarted(.pipeWire) }

    private func killedAndRestarted(_ kind: AudioServerKind) async throws {
        let server = try await startServer(kind, bus: bus)
        defer { server.stop() }
        let recorder = try LinkRecorder(socket: server.pulseSocketPath)
        defer { recorder.stop() }
        let player = try server.paplay(["application.name": "Before"])
        defer { player.stop() }
        await recorder.waitFor("the stream before the crash") { !$0.streams(named: "Before").isEmpty }
        guard let before = recorder.link.inventory.server else { return XCTFail("not connected") }

        server.kill()
        await recorder.waitForChanges("disconnected") { $0.contains { if case .disconnected = $0.kind { true } else { false } } }
        guard let lost = recorder.changes.last else { return }
        XCTAssertFalse(lost.previous.streams(named: "Before").isEmpty, "the disconnection carries the previous inventory")
        XCTAssertEqual(lost.current, AudioInventory())
        XCTAssertEqual(recorder.link.inventory, AudioInventory())
        XCTAssertNotNil(recorder.link.absenceReason)

        try await server.start(timeout: .seconds(20))
        await recorder.waitForChanges("connected again") { $0.filter { $0.kind == .connected }.count == 2 }
        let changes = recorder.changes
        XCTAssertEqual(changes.filter { if case .disconnected = $0.kind { true } else { false } }.count, 1)
        guard let again = changes.last(where: { $0.kind == .connected }) else { return }
        XCTAssertEqual(again.previous, AudioInventory())
        // PipeWire: WirePlumber may choose the default sink only after the link connected.
        XCTAssertTrue([nil, server.sinkName].contains(again.current.defaultSink), "\(again.current.defaultSink ?? "nil")")
        await recorder.waitFor("the default sink after the restart") { $0.defaultSink == server.sinkName }
        XCTAssertTrue(again.current.streams(named: "Before").isEmpty, "a fresh inventory: \(again.current.streams)")
        XCTAssertNotNil(again.current.server)
        if kind == .pulseAudio { XCTAssertNotEqual(again.current.server?.cookie, before.cookie) }
        XCTAssertEqual(recorder.logLines.filter { $0.contains("gone") }.count, 1, "\(recorder.logLines)")

        // And it is live: a new stream shows.
        let after = try server.paplay(["application.name": "After"])
        defer { after.stop() }
        await recorder.waitFor("a stream after the restart") { !$0.streams(named: "After").isEmpty }
    }
}
