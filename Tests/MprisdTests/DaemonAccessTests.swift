import DBus
import Foundation
import TestSupport
import XCTest

/// A session belongs to the connection that registered it: anyone else calling its methods gets
/// `AccessDenied` and changes nothing, while its properties stay readable.
final class DaemonAccessTests: DaemonTestCase {
    private func sessionPath(_ id: UInt64) throws -> ObjectPath {
        try ObjectPath("\(Self.policyPath)/session/\(id)")
    }

    private func call(_ connection: Connection, _ path: ObjectPath, _ member: String,
                      _ arguments: [DBusValue] = []) async throws -> [DBusValue] {
        try await connection.call(destination: Self.policyName, path: path, interface: Self.sessionInterface,
                                  member: member, arguments, timeout: .seconds(5))
    }

    private func property(_ connection: Connection, _ path: ObjectPath, _ name: String) async throws -> DBusValue? {
        let reply = try await connection.call(destination: Self.policyName, path: path,
                                              interface: "org.freedesktop.DBus.Properties", member: "Get",
                                              [.string(Self.sessionInterface), .string(name)], timeout: .seconds(5))
        guard case .variant(let value)? = reply.first else { return nil }
        return value
    }

    private static let noOptions = DBusValue.dictionary(key: .string, value: .variant, [])

    private func assertAccessDenied(_ connection: Connection, _ path: ObjectPath, _ member: String, _ arguments: [DBusValue],
                                    file: StaticString = #filePath, line: UInt = #line) async {
        do {
            _ = try await call(connection, path, member, arguments)
            XCTFail("\(member) by a stranger succeeded", file: file, line: line)
        } catch {
            XCTAssertEqual((error as? DBusError)?.name, DBusError.Name.accessDenied, "\(member): \(error)", file: file, line: line)
        }
    }

    func testAStrangerIsDeniedEveryMethodOfARunsSession() async throws {
        try await startDaemon()
        let program = try run(["--category", "playAndRecord", "--mode", "voiceChat", "--name", "call", "--", "sleep", "10"])
        let before = try await waitForStatus("the run's session is active") { $0.session(named: "call")?.active == true }
        let session = try XCTUnwrap(before.session(named: "call"))
        let path = try sessionPath(session.id)
        let stranger = try connect()
        XCTAssertNotEqual(stranger.uniqueName, session.owner)

        await assertAccessDenied(stranger, path, "Activate", [Self.noOptions])
        await assertAccessDenied(stranger, path, "Deactivate", [Self.noOptions])
        await assertAccessDenied(stranger, path, "SetConfiguration",
                                 [.dictionary(key: .string, value: .variant, [DictionaryEntry(.string("category"), .variant(.string("ambient")))])])
        await assertAccessDenied(stranger, path, "SetIORunning", [.boolean(false)])
        await assertAccessDenied(stranger, path, "Unregister", [])
        await waitForDaemonLog("(call,", "Activate by \(stranger.uniqueName) denied")

        let after = try await busStatus()
        let unchanged = try XCTUnwrap(after.session(named: "call"), "still registered: \(after)")
        XCTAssertEqual(unchanged.id, session.id)
        XCTAssertEqual(unchanged.owner, session.owner)
        XCTAssertTrue(unchanged.active)
        XCTAssertEqual(unchanged.category, "playAndRecord")
        XCTAssertEqual(unchanged.mode, "voiceChat")
        // Properties are readable by everyone.
        let owner = try await property(stranger, path, "Owner")
        XCTAssertEqual(owner, .string(session.owner))
        XCTAssertTrue(program.isRunning)
    }

    func testActivateBySomeoneElseIsDeniedAndLeavesTheSessionInactive() async throws {
        try await startDaemon()
        let owner = try connect()
        let reply = try await owner.call(destination: Self.policyName, path: ObjectPath(Self.policyPath),
                                         interface: Self.policyInterface, member: "Register",
                                         [.dictionary(key: .string, value: .variant, [
                                             DictionaryEntry(.string("category"), .variant(.string("playback"))),
                                             DictionaryEntry(.string("name"), .variant(.string("mine"))),
                                         ])], timeout: .seconds(5))
        guard case .objectPath(let path)? = reply.first else { return XCTFail("Register answered \(reply)") }
        let listed = try await busStatus()
        XCTAssertEqual(listed.session(named: "mine")?.active, false, "\(listed)")
        XCTAssertEqual(path.rawValue, "\(Self.policyPath)/session/\(try XCTUnwrap(listed.session(named: "mine")).id)")

        // The stranger is `busctl --user`, as a user would try it.
        let busctl = try await tool("busctl", ["--user", "call", Self.policyName, path.rawValue, Self.sessionInterface,
                                               "Activate", "a{sv}", "0"])
        XCTAssertNotEqual(busctl.status, 0)
        XCTAssertTrue(busctl.stderr.contains("Access denied"), busctl.stderr)
        let stranger = try connect()
        await assertAccessDenied(stranger, path, "Activate", [Self.noOptions])

        let active = try await property(stranger, path, "Active")
        XCTAssertEqual(active, .boolean(false), "the stranger's Activate changed nothing")
        let status = try await busStatus()
        XCTAssertEqual(status.session(named: "mine")?.active, false, "\(status)")

        // The owner may.
        _ = try await call(owner, path, "Activate", [Self.noOptions])
        let nowActive = try await property(stranger, path, "Active")
        XCTAssertEqual(nowActive, .boolean(true))
    }
}
