import DBus
import Foundation
import TestSupport
import XCTest

// Introspection as gdbus and busctl parse it, child nodes, UnknownObject; and the Peer interface.

final class ToolInteropIntrospectionTests: InteropTestCase {
    /// `text` with every run of whitespace turned into one space.
    static func collapsed(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    private func introspectXML(_ path: String) async throws -> ToolResult {
        try await run("gdbus", ["introspect", "--session", "-d", Interop.name, "-o", path, "--xml"])
    }

    func testGdbusIntrospectParsesEveryMember() async throws {
        try await startService()
        // Without --xml gdbus parses the XML and prints it back in its own syntax.
        let output = succeeded(try await run("gdbus", ["introspect", "--session", "-d", Interop.name, "-o", Interop.path]))
        let text = Self.collapsed(output)
        for expected in [
            "interface org.mprisd.Test {",
            "Echo(in s text, out s text);",
            "Divide(in i numerator, in i denominator, out i quotient);",
            "Boom();",
            "EchoManaged(in a{oa{sv}} value, out a{oa{sv}} value);",
            "EchoStruct(in (ias) value, out (ias) value);",
            "EchoFd(in h value, out h value);",
            "Sentinel(u mark);",
            "Changed(s what, a{sv} details);",
            "Tick();",
            "readwrite s Name = 'initial';",
            "readwrite d Volume = 0.5;",
            "readonly s Identity = 'mprisd test object';",
            "@org.freedesktop.DBus.Property.EmitsChangedSignal(\"false\") readwrite x Position = 0;",
            "@org.freedesktop.DBus.Property.EmitsChangedSignal(\"const\") readonly s Identity",
            "@org.freedesktop.DBus.Property.EmitsChangedSignal(\"invalidates\") readonly s Token = 't0';",
            "@org.freedesktop.DBus.Property.EmitsChangedSignal(\"false\") readonly i Quiet = 0;",
            "interface org.freedesktop.DBus.Properties {",
            "PropertiesChanged(s interface_name,",
            "interface org.freedesktop.DBus.Peer {",
            "interface org.freedesktop.DBus.Introspectable {",
        ] {
            XCTAssertTrue(text.contains(expected), "gdbus introspect lacks \(expected.debugDescription):\n\(output)")
        }
        // The raw XML: annotations attach to the right property.
        let xml = succeeded(try await introspectXML(Interop.path))
        XCTAssertTrue(xml.contains("""
            <property name="Position" type="x" access="readwrite">
                  <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="false"/>
            """), xml)
        XCTAssertTrue(xml.contains("""
            <property name="Identity" type="s" access="read">
                  <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="const"/>
            """), xml)
        XCTAssertTrue(xml.contains("<property name=\"Name\" type=\"s\" access=\"readwrite\"/>"), xml)
    }

    func testBusctlIntrospectListsEveryMember() async throws {
        try await startService()
        let text = succeeded(try await busctl(["--no-legend", "introspect", Interop.name, Interop.path]))
        // busctl prints "NAME TYPE SIGNATURE RESULT/VALUE FLAGS"; compare whitespace-collapsed rows.
        let rows = Set(text.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") })
        for expected in [
            "org.mprisd.Test interface - - -",
            ".Echo method s s -",
            ".Divide method ii i -",
            ".Boom method - - -",
            ".EchoBasics method ybnqiuxtdsog ybnqiuxtdsog -",
            ".EchoManaged method a{oa{sv}} a{oa{sv}} -",
            ".EchoPairs method a(is) a(is) -",
            ".EchoFd method h h -",
            ".Identity property s \"mprisd test object\" const",
            ".Name property s \"initial\" emits-change writable",
            ".Volume property d 0.5 emits-change writable",
            ".Position property x 0 writable",
            ".Quiet property i 0 -",
            ".Token property s \"t0\" emits-invalidation",
            ".Sentinel signal u - -",
            ".Changed signal sa{sv} - -",
            ".Tick signal - - -",
            "org.freedesktop.DBus.Peer interface - - -",
            ".GetMachineId method - s -",
            ".Ping method - - -",
            "org.freedesktop.DBus.Introspectable interface - - -",
            ".Introspect method - s -",
            "org.freedesktop.DBus.Properties interface - - -",
            ".GetAll method s a{sv} -",
            ".Set method ssv - -",
            ".PropertiesChanged signal sa{sv}as - -",
        ] {
            XCTAssertTrue(rows.contains(expected), "busctl introspect lacks row '\(expected)':\n\(text)")
        }
        // Filtering by interface works too.
        let filtered = succeeded(try await busctl(["--no-legend", "introspect", Interop.name, Interop.path, Interop.iface]))
        XCTAssertTrue(filtered.contains(".Sentinel"), filtered)
        XCTAssertFalse(filtered.contains("org.freedesktop.DBus.Peer"), filtered)
    }

    func testChildNodesAndUnknownObjects() async throws {
        let (connection, _) = try await startService()
        _ = try connection.export(try ObjectPath("/org/mprisd/Test/Sub/Leaf"), interfaces: [
            Interface("org.mprisd.Leaf", methods: [.immediate("Hello", outputs: [Argument(nil, .string)]) { _ in [.string("leaf")] }]),
        ])
        _ = try connection.export(try ObjectPath("/org/other"), interfaces: [Interface("org.mprisd.Other")])

        let root = succeeded(try await introspectXML("/"))
        XCTAssertTrue(root.contains("<node name=\"org\"/>"), root)
        XCTAssertFalse(root.contains("<node name=\"mprisd\"/>"), "only direct children: \(root)")
        let org = succeeded(try await introspectXML("/org"))
        XCTAssertTrue(org.contains("<node name=\"mprisd\"/>"), org)
        XCTAssertTrue(org.contains("<node name=\"other\"/>"), org)
        XCTAssertFalse(org.contains("org.freedesktop.DBus.Properties"), "an intermediate node has no properties: \(org)")
        let test = succeeded(try await introspectXML(Interop.path))
        XCTAssertTrue(test.contains("<node name=\"Sub\"/>"), test)
        XCTAssertTrue(test.contains("<interface name=\"org.mprisd.Test\">"), test)
        let sub = succeeded(try await introspectXML("/org/mprisd/Test/Sub"))
        XCTAssertTrue(sub.contains("<node name=\"Leaf\"/>"), sub)
        XCTAssertFalse(sub.contains("org.mprisd.Test"), sub)

        // busctl tree walks the nodes by introspection and finds every path.
        let tree = succeeded(try await busctl(["tree", "--list", Interop.name]))
        XCTAssertEqual(Set(tree.split(separator: "\n").map(String.init)), [
            "/", "/org", "/org/mprisd", "/org/mprisd/Test", "/org/mprisd/Test/Sub",
            "/org/mprisd/Test/Sub/Leaf", "/org/other",
        ], tree)

        // Nothing at or below: UnknownObject, through gdbus and dbus-send.
        failed(try await introspectXML("/org/mprisd/Nothing"), with: DBusError.Name.unknownObject)
        failed(try await introspectXML("/org/mprisd/Test/Sub/Leaf/Deeper"), with: DBusError.Name.unknownObject)
        failed(try await dbusSend("Introspect", interface: "org.freedesktop.DBus.Introspectable", path: "/org/nothing"),
               with: DBusError.Name.unknownObject)
        failed(try await dbusSend("Echo", ["string:x"], path: "/org/mprisd/Test/Sub"), with: DBusError.Name.unknownObject)
        let leaf = succeeded(try await busctl(["call", Interop.name, "/org/mprisd/Test/Sub/Leaf", "org.mprisd.Leaf", "Hello"]))
        XCTAssertEqual(leaf, "s \"leaf\"\n")
        try await assertStillServing()
    }
}

// MARK: - Peer

final class ToolInteropPeerTests: InteropTestCase {
    func testPingAndMachineId() async throws {
        try await startService()
        let machineId = try String(contentsOfFile: "/etc/machine-id", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let ping = succeeded(try await busctlCall("Ping", interface: "org.freedesktop.DBus.Peer"))
        XCTAssertEqual(ping, "")
        let id = succeeded(try await busctlCall("GetMachineId", interface: "org.freedesktop.DBus.Peer"))
        XCTAssertEqual(id, "s \"\(machineId)\"\n")
        // Peer answers on any path, and via dbus-send and gdbus too.
        succeeded(try await dbusSend("Ping", interface: "org.freedesktop.DBus.Peer", path: "/no/such/object"))
        let gdbusId = succeeded(try await gdbusCall("GetMachineId", interface: "org.freedesktop.DBus.Peer"))
        XCTAssertEqual(gdbusId, "('\(machineId)',)\n")
        failed(try await dbusSend("Pong", interface: "org.freedesktop.DBus.Peer"), with: DBusError.Name.unknownMethod)
        try await assertStillServing()
    }
}
