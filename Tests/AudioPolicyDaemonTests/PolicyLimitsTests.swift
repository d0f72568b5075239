import AudioPolicyClient
import DBus
import Foundation
import PolicyTestSupport
import SessionCore
import TestSupport
import XCTest

/// One client cannot make the daemon hold without bound: a cap on sessions per connection and on
/// the length of every string it hands over (`LimitsExceeded`), while others are served on.
final class PolicyLimitsTests: PolicyTestCase {
    private static let limitsExceeded = "org.mprisd.AudioPolicy1.Error.LimitsExceeded"

    /// `Register` with a `name`, sent raw on `connection`.
    private func register(on connection: Connection, name: String) throws -> ObjectPath {
        let reply = try connection.callAndWait(.methodCall(
            destination: AudioPolicyNames.busName, path: AudioPolicyNames.objectPath,
            interface: AudioPolicyNames.interface, member: "Register",
            body: [.dictionary(key: .string, value: .variant, [
                DictionaryEntry(.string("category"), .variant(.string("ambient"))),
                DictionaryEntry(.string("name"), .variant(.string(name))),
            ])]), timeout: .seconds(5))
        guard case .objectPath(let path)? = reply.body.first else { throw TestSupportError("Register: \(reply.body)") }
        return path
    }

    private func assertLimitsExceeded(_ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), file: file, line: line) {
            XCTAssertEqual(($0 as? DBusError)?.name, Self.limitsExceeded, "\($0)", file: file, line: line)
        }
    }

    func testTheSixtyFifthSessionOfOneConnectionIsRefusedWhileOthersRegister() throws {
        let daemon = try startDaemon()
        let greedy = try connect()
        for index in 1...64 { _ = try register(on: greedy, name: "s\(index)") }
        assertLimitsExceeded { _ = try register(on: greedy, name: "s65") }
        XCTAssertTrue(daemon.log.elements.contains { $0.contains("registration by \(greedy.uniqueName) refused") })
        // Someone else is served.
        _ = try register(on: try connect(), name: "other")
        XCTAssertEqual(try status().sessions.count, 65)
    }

    func testUnregisteringMakesRoom() throws {
        _ = try startDaemon()
        let client = try connect()
        var paths: [ObjectPath] = []
        for index in 1...64 { paths.append(try register(on: client, name: "s\(index)")) }
        _ = try client.callAndWait(.methodCall(destination: AudioPolicyNames.busName, path: paths[0],
                                               interface: AudioPolicyNames.sessionInterface, member: "Unregister"))
        _ = try register(on: client, name: "s65")
        assertLimitsExceeded { _ = try register(on: client, name: "s66") }
    }

    func testTooLongStringsAreRefused() async throws {
        _ = try startDaemon()
        let client = try connect()
        let longest = String(repeating: "é", count: 128)  // 256 bytes
        let path = try register(on: client, name: longest)
        assertLimitsExceeded { _ = try register(on: client, name: longest + "x") }
        assertLimitsExceeded { _ = try register(on: client, name: String(repeating: "n", count: 1 << 20)) }
        // A later SetConfiguration is held to the same limit, and leaves the name as it was.
        assertLimitsExceeded {
            _ = try client.callAndWait(.methodCall(
                destination: AudioPolicyNames.busName, path: path, interface: AudioPolicyNames.sessionInterface,
                member: "SetConfiguration", body: [.dictionary(key: .string, value: .variant, [
                    DictionaryEntry(.string("name"), .variant(.string(String(repeating: "n", count: 257)))),
                ])]))
        }
        assertLimitsExceeded {
            _ = try client.callAndWait(.methodCall(
                destination: AudioPolicyNames.busName, path: AudioPolicyNames.objectPath,
                interface: AudioPolicyNames.interface, member: "SetRouteOverride",
                body: [.string(String(repeating: "p", count: 300))]))
        }
        XCTAssertEqual(try status().sessions.map(\.name), [longest])
    }
}
