import DBus
import Synchronization
import TestSupport
import XCTest

/// `Properties.Get` is answered by a fast path that keeps the last property resolved
/// (`ObjectTable+FastGet`): repeated calls, objects that come and go at the same path, and getters
/// that fail must answer exactly as the general path does.
final class PropertyGetFastPathTests: BusTestCase {
    private static let iface = "org.mprisd.FastGet"

    private func exportObject(on server: Connection, name: String) throws -> ExportedObject {
        try server.export(try ObjectPath("/fast"), interfaces: [
            Interface(Self.iface, properties: [
                Property("Name", .string, get: { .string(name) }),
                Property("Broken", .string, get: { throw DBusError(DBusError.Name.accessDenied, "broken getter") }),
                Property("Mistyped", .string, get: { .int32(7) }),
            ]),
        ])
    }

    private func get(_ client: Connection, _ server: Connection, _ interface: String,
                     _ name: String) async throws(DBusError) -> [DBusValue] {
        try await client.call(destination: server.uniqueName, path: try ObjectPath("/fast"),
                              interface: StandardInterfaceName.properties, member: "Get",
                              [.string(interface), .string(name)])
    }

    private func getError(_ client: Connection, _ server: Connection, _ interface: String,
                          _ name: String, file: StaticString = #filePath, line: UInt = #line) async -> DBusError? {
        do {
            let body = try await get(client, server, interface, name)
            XCTFail("Get \(name) answered \(body), not an error", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func testRepeatedGetFollowsTheObjectExportedAtThePath() async throws {
        let server = try connect()
        let client = try connect()
        let first = try exportObject(on: server, name: "first")
        for _ in 0..<3 {
            let body = try await get(client, server, Self.iface, "Name")
            XCTAssertEqual(body, [.variant(.string("first"))])
        }
        // Another property, then the first again: the kept one is replaced, not confused.
        let other = await getError(client, server, Self.iface, "Nope")
        XCTAssertEqual(other?.name, DBusError.Name.unknownProperty)
        let again = try await get(client, server, "", "Name")
        XCTAssertEqual(again, [.variant(.string("first"))])
        let stillFirst = try await get(client, server, Self.iface, "Name")
        XCTAssertEqual(stillFirst, [.variant(.string("first"))])

        // Gone: the kept property must not answer for an object no longer there.
        first.unexport()
        let gone = await getError(client, server, Self.iface, "Name")
        XCTAssertEqual(gone?.name, DBusError.Name.unknownObject)

        // A new object at the same path answers with its own getter.
        _ = try exportObject(on: server, name: "second")
        let second = try await get(client, server, Self.iface, "Name")
        XCTAssertEqual(second, [.variant(.string("second"))])
        let unknownInterface = await getError(client, server, "org.mprisd.Nope", "Name")
        XCTAssertEqual(unknownInterface?.name, DBusError.Name.unknownInterface)
    }

    func testFailingAndMistypedGettersAnswerTheirErrorsEveryTime() async throws {
        let server = try connect()
        let client = try connect()
        _ = try exportObject(on: server, name: "n")
        for _ in 0..<2 {  // the first resolves the property, the second finds it kept
            let broken = await getError(client, server, Self.iface, "Broken")
            XCTAssertEqual(broken?.name, DBusError.Name.accessDenied)
            XCTAssertEqual(broken?.message, "broken getter")
            let mistyped = await getError(client, server, Self.iface, "Mistyped")
            XCTAssertEqual(mistyped?.name, DBusError.Name.failed)
            XCTAssertTrue(mistyped?.message.contains("produced 'i' but declares 's'") ?? false,
                          mistyped?.message ?? "no error")
        }
        let name = try await get(client, server, Self.iface, "Name")
        XCTAssertEqual(name, [.variant(.string("n"))])
    }
}
