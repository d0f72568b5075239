import DBus
import Foundation
import TestSupport
import XCTest

/// Big, mistyped, deep and oddly named input: the right error (or the right echo), and the service
/// keeps serving.
final class ToolInteropHostileInputTests: InteropTestCase {
    func testMegabyteMessagesRoundTrip() async throws {
        try await startService()
        // One 1 MB string through the binding on both ends.
        let client = try connect()
        let big = String(repeating: "0123456789abcdeé", count: 1 << 16)  // 17 bytes × 65536 ≈ 1.1 MB
        let reply = try await client.call(destination: Interop.name, path: try ObjectPath(Interop.path),
                                          interface: Interop.iface, member: "Echo", [.string(big)])
        XCTAssertEqual(reply.count, 1)
        XCTAssertTrue(reply.first == .string(big), "the 1 MB string came back different")
        let bytes = (0..<(1 << 20)).map { DBusValue.byte(UInt8(truncatingIfNeeded: $0 &* 31)) }
        let echoedBytes = try await client.call(destination: Interop.name, path: try ObjectPath(Interop.path),
                                                interface: Interop.iface, member: "EchoBytes",
                                                [.array(element: .byte, bytes)])
        XCTAssertTrue(echoedBytes == [.array(element: .byte, bytes)], "the 1 MB byte array came back different")

        // 1 MB from busctl: ten 100 kB strings (one argv entry may not exceed 128 kB).
        let chunks = (0..<10).map { String(repeating: Character(String($0)), count: 100_000) }
        let result = try await busctlCall("EchoStrings", ["as", "10"] + chunks)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout == "as 10 " + chunks.map { "\"\($0)\"" }.joined(separator: " ") + "\n",
                      "busctl's 1 MB echo differs (\(result.stdout.utf8.count) bytes)")
        try await assertStillServing()
    }

    func testManyWrongTypedArguments() async throws {
        try await startService()
        let twenty = try await busctlCall("Echo", [String(repeating: "i", count: 20)] + (1...20).map(String.init))
        XCTAssertNotEqual(twenty.status, 0)
        XCTAssertTrue(twenty.stderr.contains("Echo takes 's', not '\(String(repeating: "i", count: 20))'"), twenty.stderr)
        try await assertStillServing()
        let mixed = ["string:a", "int32:1", "byte:2", "boolean:true", "double:1.5", "uint64:3", "objpath:/x",
                     "int16:-1", "uint16:1", "uint32:7", "int64:-9", "array:string:p,q", "variant:int32:1",
                     "dict:string:string:k,v", "string:b", "int32:2", "byte:3", "boolean:false", "double:0", "uint64:0"]
        failed(try await dbusSend("Echo", mixed), with: DBusError.Name.invalidArgs,
               "Echo takes 's', not 'siybdtonqux")
        try await assertStillServing()
        // The right types in the wrong order.
        failed(try await dbusSend("Divide", ["string:1", "int32:1"]), with: DBusError.Name.invalidArgs, "not 'si'")
        failed(try await dbusSend("Set", mixed, interface: Interop.properties), with: DBusError.Name.invalidArgs)
        try await assertStillServing()
    }

    func testOddButValidNames() async throws {
        let (service, _) = try await startService()
        let longInterface = "x" + String(repeating: "_", count: 250) + ".y"  // 253 bytes
        let longMember = "M" + String(repeating: "9", count: 254)  // 255 bytes
        let deepPath = "/" + (0..<100).map { "n\($0)" }.joined(separator: "/")
        let cases: [(method: String, interface: String, path: String, error: String)] = [
            ("Echo", "a.b", Interop.path, DBusError.Name.unknownInterface),
            ("Echo", longInterface, Interop.path, DBusError.Name.unknownInterface),
            ("Echo", "_._", Interop.path, DBusError.Name.unknownInterface),
            ("_", Interop.iface, Interop.path, DBusError.Name.unknownMethod),
            (longMember, Interop.iface, Interop.path, DBusError.Name.unknownMethod),
            ("echo", Interop.iface, Interop.path, DBusError.Name.unknownMethod),
            ("Ping", Interop.iface, Interop.path, DBusError.Name.unknownMethod),
            ("Introspect", "org.freedesktop.DBus.Peer", Interop.path, DBusError.Name.unknownMethod),
            ("Get_", Interop.properties, Interop.path, DBusError.Name.unknownMethod),
            ("Echo", Interop.iface, "/", DBusError.Name.unknownObject),
            ("Echo", Interop.iface, deepPath, DBusError.Name.unknownObject),
            ("Echo", Interop.iface, "/_/0/a_1", DBusError.Name.unknownObject),
            ("Echo", Interop.iface, Interop.path + "/Test", DBusError.Name.unknownObject),
        ]
        for call in cases {
            failed(try await dbusSend(call.method, ["string:x"], interface: call.interface, path: call.path),
                   with: call.error)
            try await assertStillServing(call.method)
        }
        // Addressed by unique name rather than the well-known one: answered the same.
        let unique = succeeded(try await busctl(["call", "--", service.uniqueName, Interop.path, Interop.iface, "Echo", "s", "u"]))
        XCTAssertEqual(unique, "s \"u\"\n")
        failed(try await run("dbus-send", ["--bus=\(bus.address)", "--dest=\(service.uniqueName)", "--print-reply",
                                            "/", "\(Interop.iface).Echo", "string:x"]), with: DBusError.Name.unknownObject)
    }

    func testDeepAndWideValues() async throws {
        try await startService()
        // 40 variants nested in each other.
        let depth = 40
        let nested = try await busctlCall("EchoVariant", Array(repeating: "v", count: depth) + ["s", "core"])
        XCTAssertEqual(succeeded(nested), Array(repeating: "v", count: depth).joined(separator: " ") + " s \"core\"\n")
        // 10 000 integers and a 1 000-entry dictionary.
        let ints = (0..<10_000).map { String($0 * 7 - 35_000) }
        let wide = try await busctlCall("EchoInts", ["ai", "10000"] + ints)
        XCTAssertEqual(succeeded(wide), "ai 10000 " + ints.joined(separator: " ") + "\n")
        let entries = (0..<1000).flatMap { ["k\($0)", "u", "\($0)"] }
        let dict = try await busctlCall("EchoVardict", ["a{sv}", "1000"] + entries)
        XCTAssertEqual(succeeded(dict), "a{sv} 1000 " + (0..<1000).map { "\"k\($0)\" u \($0)" }.joined(separator: " ") + "\n")
        // A deep value set on a string property: InvalidArgs, the property unchanged.
        failed(try await gdbusCall("Set", ["org.mprisd.Test", "Name", "<{'k': <<<[(1, ['x'])]>>>}>"],
                                   interface: Interop.properties),
               with: "GDBus.Error:\(DBusError.Name.invalidArgs)", "property Name is 's', not 'a{sv}'")
        XCTAssertEqual(state["Name"], .string("initial"))
        try await assertStillServing()
    }

    /// Method calls without an interface header (valid; the tools cannot send them, a second binding
    /// connection can): routed by member name, checked like any other call.
    func testCallsWithoutInterfaceHeader() async throws {
        try await startService()
        let client = try connect()
        let path = try ObjectPath(Interop.path)
        func call(_ member: String, _ body: [DBusValue] = []) async throws(DBusError) -> [DBusValue] {
            try await client.call(destination: Interop.name, path: path, interface: nil, member: member, body)
        }
        let echoed = try await call("Echo", [.string("bare")])
        XCTAssertEqual(echoed, [.string("bare")])
        let introspection = try await call("Introspect")
        guard case .string(let xml)? = introspection.first else { return XCTFail("\(introspection)") }
        XCTAssertTrue(xml.contains("<interface name=\"org.mprisd.Test\">"), xml)
        let ping = try await call("Ping")
        XCTAssertEqual(ping, [])
        for (member, body, name) in [("Nope", [], DBusError.Name.unknownMethod),
                                     ("Echo", [DBusValue.int32(1)], DBusError.Name.invalidArgs),
                                     ("Boom", [], Interop.boom)] {
            do {
                let reply = try await call(member, body)
                XCTFail("\(member) answered \(reply)")
            } catch {
                XCTAssertEqual(error.name, name, "\(member): \(error)")
            }
        }
        try await assertStillServing()
    }

    /// A reply the binding cannot marshal (a string with NUL) becomes a Failed error reply, and an
    /// outgoing call carrying such a value is a thrown error on the caller's side.
    func testUnmarshallableValuesAreErrorsNotTraps() async throws {
        try await startService()
        failed(try await dbusSend("Nul"), with: DBusError.Name.failed, "could not be marshalled")
        try await assertStillServing()
        let client = try connect()
        do {
            _ = try await client.call(destination: Interop.name, path: try ObjectPath(Interop.path),
                                      interface: Interop.iface, member: "Echo", [.string("a\u{0}b")])
            XCTFail("a string with NUL was sent")
        } catch {
            XCTAssertEqual(error.name, DBusError.Name.invalidArgs)
        }
        try await assertStillServing()
    }

    /// Many tools calling at once: every call is answered.
    func testConcurrentToolCalls() async throws {
        try await startService()
        let address = bus.address
        let results = try await withThrowingTaskGroup(of: (Int, ToolResult).self) { group in
            for index in 0..<16 {
                group.addTask {
                    if index % 2 == 0 {
                        return (index, try await Interop.runTool("/usr/bin/busctl", [
                            "--address=\(address)", "call", "--", Interop.name, Interop.path, Interop.iface,
                            "EchoAsync", "s", "call \(index)",
                        ], environment: nil))
                    }
                    return (index, try await Interop.runTool("/usr/bin/dbus-send", [
                        "--bus=\(address)", "--dest=\(Interop.name)", "--type=method_call", "--print-reply",
                        Interop.path, "\(Interop.iface).Divide", "int32:\(index * 10)", "int32:10",
                    ], environment: nil))
                }
            }
            var results: [Int: ToolResult] = [:]
            for try await (index, result) in group { results[index] = result }
            return results
        }
        XCTAssertEqual(results.count, 16)
        for (index, result) in results {
            XCTAssertEqual(result.status, 0, result.stderr)
            if index % 2 == 0 {
                XCTAssertEqual(result.stdout, "s \"call \(index)\"\n")
            } else {
                XCTAssertTrue(result.stdout.hasSuffix("   int32 \(index)\n"), result.stdout)
            }
        }
    }
}
