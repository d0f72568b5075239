import DBus
import Foundation
import TestSupport
import XCTest

/// The daemon's log quotes what clients say, but a client can neither forge log lines nor send the
/// terminal escape sequences, nor make the log grow with the length of its names.
final class DaemonLogTests: DaemonTestCase {
    private static let limitsExceeded = "org.mprisd.AudioPolicy1.Error.LimitsExceeded"

    /// Registers an ambient session named `name` on `connection`.
    private func register(on connection: Connection, name: String) async throws {
        _ = try await connection.call(destination: Self.policyName, path: ObjectPath(Self.policyPath),
                                      interface: Self.policyInterface, member: "Register", [
                                          .dictionary(key: .string, value: .variant, [
                                              DictionaryEntry(.string("category"), .variant(.string("ambient"))),
                                              DictionaryEntry(.string("name"), .variant(.string(name))),
                                          ]),
                                      ], timeout: .seconds(10))
    }

    func testASessionNameCannotForgeLinesNorEscapeToTheTerminal() async throws {
        let daemon = try await startDaemon()
        let client = try connect()
        try await register(on: client, name: "evil\nFAKE LINE\u{1B}]0;x\u{07}")
        await waitForDaemonLog("registered as")
        _ = try await mprisd(["silent", "on"])
        await waitForDaemonLog("FAKE LINE", "silent mode on")
        client.close()
        await waitForDaemonLog("removed: its owner left the bus")
        let log = daemon.stderr
        XCTAssertFalse(log.utf8.contains(0x1B), "an ESC byte reached the log: \(log)")
        XCTAssertFalse(log.utf8.contains(0x07), "a BEL byte reached the log: \(log)")
        let forged = log.split(separator: "\n").filter { $0.hasPrefix("FAKE LINE") }
        XCTAssertEqual(forged, [], "a client forged log lines")
        XCTAssertTrue(log.contains("evil\\x0aFAKE LINE\\x1b]0;x\\x07"), "the name is quoted escaped: \(log)")
    }

    func testLogGrowthDoesNotScaleWithNameLength() async throws {
        let daemon = try await startDaemon()
        let client = try connect()
        // As long a name as the daemon takes (64 KB if it took that).
        var name = String(repeating: "n", count: 65_536)
        for index in 0..<50 {
            do {
                try await register(on: client, name: name + "\(index)")
            } catch let error as DBusError where error.name == Self.limitsExceeded {
                name = String(repeating: "n", count: 253)
                try await register(on: client, name: name + "\(index)")
            }
        }
        try await waitForStatus("50 sessions") { $0.sessions.count == 50 }
        let before = daemon.stderr.utf8.count
        let result = try await mprisd(["silent", "on"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let logged = await eventually {
            daemon.stderr.split(separator: "\n").filter { $0.contains("silent mode on") }.count >= 51
        }
        XCTAssertTrue(logged, daemon.stderr)
        let growth = daemon.stderr.utf8.count - before
        print("log: silent on with 50 sessions of \(name.utf8.count)-byte names wrote \(growth) bytes")
        XCTAssertLessThan(growth, 50 * 150, "the log grew with the names' length")
    }
}
