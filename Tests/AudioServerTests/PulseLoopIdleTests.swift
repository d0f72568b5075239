import AudioServer
import Foundation
import TestSupport
import XCTest

/// Idle means idle: the link's thread, connected to a server where nothing happens, is not woken
/// at all (no timers, no polling), counted by the kernel.
final class PulseLoopIdleTests: BusTestCase {
    func testIdleLinkThreadHasZeroContextSwitchesPulseAudio() async throws { try await idle(.pulseAudio) }
    func testIdleLinkThreadHasZeroContextSwitchesPipeWire() async throws { try await idle(.pipeWire) }

    func testIdleLinkThreadWaitingForAServerHasZeroContextSwitches() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mprisd-idle-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let recorder = try LinkRecorder(socket: directory.appendingPathComponent("pulse/native").path)
        defer { recorder.stop() }
        await recorder.waitFor("absence logged", { _ in !recorder.logLines.isEmpty })
        let switches = try await quietestWindow()
        XCTAssertEqual(switches, 0, "the waiting thread woke up")
    }

    private func idle(_ kind: AudioServerKind) async throws {
        let server = try await startServer(kind, bus: bus)
        defer { server.stop() }
        // TestSupport's PulseAudio keeps its sink's latency low with a loopback, whose rate
        // adjustments are a sink-input change event about every second: not an idle server.
        if kind == .pulseAudio { try await server.pactl("unload-module", "module-loopback") }
        let recorder = try LinkRecorder(socket: server.pulseSocketPath)
        defer { recorder.stop() }
        await recorder.waitFor("connected") { $0.server != nil && $0.defaultSink != nil }
        let switches = try await quietestWindow()
        XCTAssertEqual(switches, 0, "the connected thread woke up while the server was idle; changes: \(recorder.changes.count)")
    }

    /// The thread's context switches over 3 s windows; the fewest of up to 5 windows (a server
    /// may still settle after its start: PipeWire suspends its idle sink after a few seconds, an
    /// event the link rightly wakes up for). Returns at the first window with none.
    private func quietestWindow() async throws -> Int {
        guard let task = ProcessThreads.named("mprisd-pulse").first else {
            XCTFail("no mprisd-pulse thread")
            return -1
        }
        var fewest = Int.max
        for _ in 0..<5 {
            let before = try ProcessThreads.contextSwitches(task)
            // time is the subject here: a window of idleness, counted by the kernel
            try await Task.sleep(for: .seconds(3))
            let after = try ProcessThreads.contextSwitches(task)
            fewest = min(fewest, after - before)
            if fewest == 0 { break }
        }
        return fewest
    }
}
