import DBus
import Foundation
import TestSupport
import XCTest

/// Malformed calls to every method of the running daemon get error replies with the right names,
/// and the daemon answers on, its sessions untouched.
final class DaemonMalformedCallTests: DaemonTestCase {
    private typealias Case = (member: String, arguments: [DBusValue], error: String, mentions: String?)

    private static func dictionary(_ pairs: [(String, DBusValue)]) -> DBusValue {
        .dictionary(key: .string, value: .variant, pairs.map { DictionaryEntry(.string($0.0), .variant($0.1)) })
    }

    private static let invalidArgs = DBusError.Name.invalidArgs

    /// Calls `member` and checks the error reply's name (and that its message mentions `mentions`).
    private func expectError(_ connection: Connection, path: ObjectPath, interface: String, _ test: Case,
                             file: StaticString = #filePath, line: UInt = #line) async {
        do {
            let reply = try await connection.call(destination: Self.policyName, path: path, interface: interface,
                                                  member: test.member, test.arguments, timeout: .seconds(5))
            XCTFail("\(test.member)\(test.arguments) succeeded with \(reply)", file: file, line: line)
        } catch {
            let thrown: any Error = error
            guard let error = thrown as? DBusError else { return XCTFail("\(test.member): \(thrown)", file: file, line: line) }
            XCTAssertEqual(error.name, test.error, "\(test.member)\(test.arguments): \(error)", file: file, line: line)
            if let mentions = test.mentions {
                XCTAssertTrue(error.message.contains(mentions), "\(test.member)\(test.arguments): \(error.message)",
                              file: file, line: line)
            }
        }
    }

    func testMalformedCallsToEveryMethodGetErrorsAndTheDaemonAnswersOn() async throws {
        let daemon = try await startDaemon()
        let client = try connect()
        let policy = try ObjectPath(Self.policyPath)

        let policyCases: [Case] = [
            ("Register", [], Self.invalidArgs, nil),
            ("Register", [.string("playback")], Self.invalidArgs, "a{sv}"),
            ("Register", [Self.dictionary([("category", .string("nope"))])], Self.invalidArgs, "unknown category 'nope'"),
            ("Register", [Self.dictionary([("category", .int32(3))])], Self.invalidArgs, "category"),
            ("Register", [Self.dictionary([("mode", .string("loud"))])], Self.invalidArgs, "unknown mode 'loud'"),
            ("Register", [Self.dictionary([("options", .string("duckOthers"))])], Self.invalidArgs, "options"),
            ("Register", [Self.dictionary([("options", .array(element: .string, [.string("shout")]))])],
             Self.invalidArgs, "unknown option"),
            ("Register", [Self.dictionary([("name", .boolean(true))])], Self.invalidArgs, "name"),
            ("Register", [Self.dictionary([]), .string("extra")], Self.invalidArgs, nil),
            ("SetSilentMode", [], Self.invalidArgs, nil),
            ("SetSilentMode", [.string("on")], Self.invalidArgs, nil),
            ("SetRouteOverride", [.int32(1)], Self.invalidArgs, nil),
            ("SetRouteOverride", [.string("nowhere")], "org.mprisd.AudioPolicy1.Error.BadParam", "nowhere"),
            ("GetStatus", [.string("please")], Self.invalidArgs, nil),
            ("Explode", [], DBusError.Name.unknownMethod, nil),
        ]
        for test in policyCases {
            await expectError(client, path: policy, interface: Self.policyInterface, test)
        }

        // A session of the test's own, so the calls get past the owner check.
        let reply = try await client.call(destination: Self.policyName, path: policy, interface: Self.policyInterface,
                                          member: "Register", [Self.dictionary([("name", .string("own"))])],
                                          timeout: .seconds(5))
        guard case .objectPath(let session)? = reply.first else { return XCTFail("Register answered \(reply)") }
        let sessionCases: [Case] = [
            ("SetConfiguration", [], Self.invalidArgs, nil),
            ("SetConfiguration", [.string("ambient")], Self.invalidArgs, nil),
            ("SetConfiguration", [Self.dictionary([("category", .string("loudest"))])], Self.invalidArgs, "loudest"),
            ("SetConfiguration", [Self.dictionary([("mode", .uint32(1))])], Self.invalidArgs, "mode"),
            ("Activate", [], Self.invalidArgs, nil),
            ("Activate", [.boolean(true)], Self.invalidArgs, nil),
            ("Activate", [Self.dictionary([("allowDelayedActivation", .string("yes"))])], Self.invalidArgs,
             "allowDelayedActivation"),
            ("Deactivate", [Self.dictionary([("notifyOthers", .int32(1))])], Self.invalidArgs, "notifyOthers"),
            ("Deactivate", [.string("now")], Self.invalidArgs, nil),
            ("SetIORunning", [], Self.invalidArgs, nil),
            ("SetIORunning", [.string("yes")], Self.invalidArgs, nil),
            ("Unregister", [.boolean(true)], Self.invalidArgs, nil),
            ("Explode", [], DBusError.Name.unknownMethod, nil),
        ]
        for test in sessionCases {
            await expectError(client, path: session, interface: Self.sessionInterface, test)
        }

        // Sessions that do not exist.
        let nowhere = try ObjectPath("\(Self.policyPath)/session/999999")
        for member in ["Activate", "Deactivate", "SetConfiguration"] {
            await expectError(client, path: nowhere, interface: Self.sessionInterface,
                              (member, [Self.dictionary([])], DBusError.Name.unknownObject, nil))
        }
        await expectError(client, path: nowhere, interface: Self.sessionInterface,
                          ("Unregister", [], DBusError.Name.unknownObject, nil))

        // Properties: unknown, read-only, wrong types.
        let properties = "org.freedesktop.DBus.Properties"
        await expectError(client, path: policy, interface: properties,
                          ("Get", [.string(Self.policyInterface), .string("Loudness")], DBusError.Name.unknownProperty, nil))
        await expectError(client, path: policy, interface: properties,
                          ("Set", [.string(Self.policyInterface), .string("SilentMode"), .variant(.boolean(true))],
                           DBusError.Name.propertyReadOnly, nil))
        await expectError(client, path: session, interface: properties,
                          ("Set", [.string(Self.sessionInterface), .string("Active"), .variant(.boolean(true))],
                           DBusError.Name.propertyReadOnly, nil))
        await expectError(client, path: policy, interface: properties,
                          ("Get", [.int32(1)], Self.invalidArgs, nil))

        // Still serving, untouched: the own session is registered and inactive, silent mode off.
        XCTAssertTrue(daemon.isRunning, daemon.stderr)
        let status = try await busStatus()
        XCTAssertEqual(status.sessions.map(\.name), ["own"], "\(status)")
        XCTAssertEqual(status.session(named: "own")?.active, false)
        XCTAssertEqual(status.session(named: "own")?.category, "soloAmbient")
        XCTAssertFalse(status.silentMode)
        XCTAssertNil(status.route.override)
        // And it still works: the session activates.
        _ = try await client.call(destination: Self.policyName, path: session, interface: Self.sessionInterface,
                                  member: "Activate", [Self.dictionary([])], timeout: .seconds(5))
        let active = try await busStatus()
        XCTAssertEqual(active.session(named: "own")?.active, true, "\(active)")
    }
}
