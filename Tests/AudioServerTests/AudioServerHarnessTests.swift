import Foundation
import TestSupport
import XCTest

/// The test harness's real servers themselves: they start clean, answer like the desktop's, and
/// come back in the same directories after a crash or an orderly exit.
final class AudioServerHarnessTests: BusTestCase {
    func testPipeWireStartsWithTheNullSinkAsDefault() async throws {
        let server = try await PipeWireServer(busAddress: bus.address)
        defer { server.stop() }
        let info = try await Pactl.run(["info"], environment: server.environment())
        XCTAssertTrue(info.contains("on PipeWire"), info)
        XCTAssertTrue(info.contains("Default Sink: \(PipeWireServer.sinkName)"), info)
        XCTAssertTrue(FileManager.default.fileExists(atPath: server.pulseSocket))
    }

    func testPipeWireComesBackInTheSameDirectoriesAfterAKillAndAfterAnOrderlyExit() async throws {
        let server = try await PipeWireServer(busAddress: bus.address)
        defer { server.stop() }
        let environment = server.environment()
        server.kill()
        XCTAssertFalse(server.isRunning)
        // A crash leaves the socket file behind, and nobody answers on it.
        XCTAssertTrue(FileManager.default.fileExists(atPath: server.pulseSocket))
        XCTAssertFalse(UnixSocket.acceptsConnections(at: server.pulseSocket))
        await assertThrowsAsync(try await Pactl.run(["info"], environment: environment))

        try await server.start()
        XCTAssertTrue(server.isRunning)
        let sink = try await Pactl.run(["get-default-sink"], environment: environment)
        XCTAssertEqual(sink.trimmingCharacters(in: .whitespacesAndNewlines), PipeWireServer.sinkName, server.log)

        server.terminate()
        XCTAssertFalse(server.isRunning)
        await assertThrowsAsync(try await Pactl.run(["info"], environment: environment))
        try await server.start()
        _ = try await Pactl.run(["info"], environment: environment)
    }

    private func assertThrowsAsync<T>(_ expression: @autoclosure () async throws -> T,
                                      file: StaticString = #filePath, line: UInt = #line) async {
        do {
            _ = try await expression()
            XCTFail("no error thrown", file: file, line: line)
        } catch {}
    }
}
