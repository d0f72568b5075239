import DBus
import Foundation
import Synchronization
import TestSupport
import XCTest

/// org.freedesktop.DBus.Properties through busctl and gdbus, and PropertiesChanged as
/// dbus-monitor and a second binding connection see it.
final class ToolInteropPropertyTests: InteropTestCase {
    private func getProperty(_ names: String...) async throws -> String {
        succeeded(try await busctl(["get-property", Interop.name, Interop.path, Interop.iface] + names))
    }

    func testGetGetAllAndSetThroughBusctlAndGdbus() async throws {
        try await startService()
        let both = try await getProperty("Name", "Volume")
        XCTAssertEqual(both, "s \"initial\"\nd 0.5\n")
        let constant = try await getProperty("Identity")
        XCTAssertEqual(constant, "s \"mprisd test object\"\n")

        // busctl set-property, then every reader sees the new value.
        succeeded(try await busctl(["set-property", "--", Interop.name, Interop.path, Interop.iface, "Name", "s", "via busctl"]))
        XCTAssertEqual(state["Name"], .string("via busctl"))
        let name = try await getProperty("Name")
        XCTAssertEqual(name, "s \"via busctl\"\n")
        succeeded(try await busctl(["set-property", "--", Interop.name, Interop.path, Interop.iface, "Volume", "d", "0.75"]))
        succeeded(try await busctl(["set-property", "--", Interop.name, Interop.path, Interop.iface, "Position", "x", "-42"]))
        let after = try await getProperty("Volume", "Position")
        XCTAssertEqual(after, "d 0.75\nx -42\n")
        let gdbusGet = succeeded(try await gdbusCall("Get", ["org.mprisd.Test", "Name"], interface: Interop.properties))
        XCTAssertEqual(gdbusGet, "(<'via busctl'>,)\n")

        // gdbus Set, read back by busctl.
        succeeded(try await gdbusCall("Set", ["org.mprisd.Test", "Name", "<'via gdbus'>"], interface: Interop.properties))
        let viaGdbus = try await getProperty("Name")
        XCTAssertEqual(viaGdbus, "s \"via gdbus\"\n")

        // A getter is asked every time: a change behind the binding's back shows at once.
        state["Quiet"] = .int32(9)
        let quiet = try await getProperty("Quiet")
        XCTAssertEqual(quiet, "i 9\n")

        // GetAll for the interface, in declaration order, and for "" (all interfaces).
        let all = succeeded(try await gdbusCall("GetAll", ["org.mprisd.Test"], interface: Interop.properties))
        let expectedAll = "({'Name': <'via gdbus'>, 'Volume': <0.75>, 'Position': <int64 -42>, "
            + "'Identity': <'mprisd test object'>, 'Token': <'t0'>, 'Quiet': <9>},)\n"
        XCTAssertEqual(all, expectedAll)
        let allInterfaces = succeeded(try await gdbusCall("GetAll", ["''"], interface: Interop.properties))
        XCTAssertEqual(allInterfaces, expectedAll)
        let busctlAll = succeeded(try await busctlCall("GetAll", ["s", Interop.iface], interface: Interop.properties))
        XCTAssertEqual(busctlAll, "a{sv} 6 \"Name\" s \"via gdbus\" \"Volume\" d 0.75 \"Position\" x -42 "
            + "\"Identity\" s \"mprisd test object\" \"Token\" s \"t0\" \"Quiet\" i 9\n")
        // Get with an empty interface name finds the property too.
        let anyInterface = succeeded(try await busctlCall("Get", ["ss", "", "Volume"], interface: Interop.properties))
        XCTAssertEqual(anyInterface, "v d 0.75\n")
    }

    /// A getter that yields a value no message can carry (a string with NUL) makes Get and GetAll
    /// answer Failed, naming the marshalling; the other properties and the service are unharmed.
    func testUnsendablePropertyValueIsAFailedReply() async throws {
        try await startService()
        state["Name"] = .string("a\u{0}b")
        failed(try await gdbusCall("Get", ["org.mprisd.Test", "Name"], interface: Interop.properties),
               with: DBusError.Name.failed, "could not be marshalled")
        failed(try await gdbusCall("GetAll", ["org.mprisd.Test"], interface: Interop.properties),
               with: DBusError.Name.failed, "could not be marshalled")
        let volume = try await getProperty("Volume")
        XCTAssertEqual(volume, "d 0.5\n")
        state["Name"] = .string("fine again")
        let all = succeeded(try await busctlCall("GetAll", ["s", Interop.iface], interface: Interop.properties))
        XCTAssertTrue(all.hasPrefix("a{sv} 6 \"Name\" s \"fine again\""), all)
    }

    /// dbus-monitor sees exactly the PropertiesChanged signals that carry real changes.
    func testPropertiesChangedThroughDbusMonitor() async throws {
        let (_, object) = try await startService()
        let monitor = try InteropMonitor(address: bus.address, rules: [
            "type='signal',interface='org.freedesktop.DBus.Properties'",
            "type='signal',interface='\(Interop.iface)',member='Sentinel'",
        ])
        defer { monitor.stop() }
        _ = try await monitor.sync(object, after: nil, mark: 0)
        let header = "string \"org.mprisd.Test\""
        let noInvalidated = "array [ ]"

        // One of two properties changed: one signal carrying only that one.
        state["Name"] = .string("second")
        object.propertiesChanged(Interop.iface, ["Name", "Volume"])
        var seen = try await monitor.sync(object, after: 0, mark: 1)
        XCTAssertEqual(seen.map(\.body), [
            "\(header) array [ dict entry( string \"Name\" variant string \"second\" ) ] \(noInvalidated)",
        ], "\(seen)")
        XCTAssertEqual(seen.first?.member, "PropertiesChanged")

        // Asked again with nothing changed: no signal before the next sentinel.
        object.propertiesChanged(Interop.iface, ["Name", "Volume"])
        seen = try await monitor.sync(object, after: 1, mark: 2)
        XCTAssertEqual(seen, [], "unchanged properties were announced: \(seen)")

        // Both changed: one signal with both, in the order asked.
        state["Volume"] = .double(1)
        state["Name"] = .string("third")
        object.propertiesChanged(Interop.iface, ["Volume", "Name"])
        seen = try await monitor.sync(object, after: 2, mark: 3)
        XCTAssertEqual(seen.map(\.body), [
            "\(header) array [ dict entry( string \"Volume\" variant double 1 ) "
                + "dict entry( string \"Name\" variant string \"third\" ) ] \(noInvalidated)",
        ], "\(seen)")

        // An `.invalidates` property: listed as invalidated, without its value.
        state["Token"] = .string("t1")
        object.propertiesChanged(Interop.iface, ["Token"])
        seen = try await monitor.sync(object, after: 3, mark: 4)
        XCTAssertEqual(seen.map(\.body), ["\(header) array [ ] array [ string \"Token\" ]"], "\(seen)")

        // `.none` and `.constant` properties never signal, changed or not.
        state["Position"] = .int64(99)
        state["Quiet"] = .int32(3)
        state["Identity"] = .string("changed anyway")
        object.propertiesChanged(Interop.iface, ["Position", "Quiet", "Identity"])
        seen = try await monitor.sync(object, after: 4, mark: 5)
        XCTAssertEqual(seen, [], "non-signalling properties were announced: \(seen)")

        // Set through busctl announces the change by itself; setting the same value again does not,
        // and neither does a Set of a `.none` property.
        succeeded(try await busctl(["set-property", "--", Interop.name, Interop.path, Interop.iface, "Name", "s", "fourth"]))
        succeeded(try await busctl(["set-property", "--", Interop.name, Interop.path, Interop.iface, "Name", "s", "fourth"]))
        succeeded(try await busctl(["set-property", "--", Interop.name, Interop.path, Interop.iface, "Position", "x", "7"]))
        seen = try await monitor.sync(object, after: 5, mark: 6)
        XCTAssertEqual(seen.map(\.body), [
            "\(header) array [ dict entry( string \"Name\" variant string \"fourth\" ) ] \(noInvalidated)",
        ], "\(seen)")
    }

    /// The same rules through a second binding connection subscribed to the service's signals.
    func testPropertiesChangedThroughSecondConnection() async throws {
        let (service, object) = try await startService()
        let client = try connect()
        let received = InteropInbox()
        let subscription = try await client.subscribe(MatchRule(sender: service.uniqueName, path: object.path)) { message in
            received.messages.withLock { $0.append(message) }
        }
        defer { subscription.cancel() }
        /// Emits Sentinel(mark), waits for it, and returns the PropertiesChanged bodies before it.
        func sync(_ mark: UInt32) async throws -> [[DBusValue]] {
            try object.emit(Interop.iface, "Sentinel", [.uint32(mark)])
            let arrived = await eventually {
                received.messages.withLock { $0.contains { $0.member == "Sentinel" && $0.body == [.uint32(mark)] } }
            }
            XCTAssertTrue(arrived, "Sentinel(\(mark)) never arrived")
            return received.messages.withLock { messages in
                defer { messages.removeAll() }
                return messages.prefix { $0.member != "Sentinel" }.map(\.body)
            }
        }
        func changed(_ entries: [(String, DBusValue)], invalidated: [String] = []) -> [DBusValue] {
            [.string(Interop.iface),
             .dictionary(key: .string, value: .variant, entries.map { DictionaryEntry(.string($0.0), .variant($0.1)) }),
             .array(element: .string, invalidated.map { .string($0) })]
        }

        state["Volume"] = .double(0.25)
        object.propertiesChanged(Interop.iface, ["Name", "Volume", "Volume"])
        var seen = try await sync(1)
        XCTAssertEqual(seen, [changed([("Volume", .double(0.25))])])

        object.propertiesChanged(Interop.iface, ["Name", "Volume", "Token", "Position"])
        seen = try await sync(2)
        XCTAssertEqual(seen, [], "nothing changed")

        // A value changed and changed back between two announcements is no change.
        state["Name"] = .string("flicker")
        state["Name"] = .string("initial")
        state["Token"] = .string("t2")
        state["Position"] = .int64(5)
        object.propertiesChanged(Interop.iface, ["Name", "Token", "Position"])
        seen = try await sync(3)
        XCTAssertEqual(seen, [changed([], invalidated: ["Token"])])

        // Set through gdbus: one announcement with the new value.
        succeeded(try await gdbusCall("Set", ["org.mprisd.Test", "Volume", "<0.5>"], interface: Interop.properties))
        seen = try await sync(4)
        XCTAssertEqual(seen, [changed([("Volume", .double(0.5))])])
    }

    /// A Set naming no interface (allowed, the property is found by name) changes the value, so it
    /// must be announced like any other Set.
    func testSetWithEmptyInterfaceNameIsAnnounced() async throws {
        let (_, object) = try await startService()
        let monitor = try InteropMonitor(address: bus.address, rules: [
            "type='signal',interface='org.freedesktop.DBus.Properties'",
            "type='signal',interface='\(Interop.iface)',member='Sentinel'",
        ])
        defer { monitor.stop() }
        _ = try await monitor.sync(object, after: nil, mark: 0)
        succeeded(try await busctlCall("Set", ["ssv", "", "Name", "s", "anonymous"], interface: Interop.properties))
        XCTAssertEqual(state["Name"], .string("anonymous"))
        let seen = try await monitor.sync(object, after: 0, mark: 1)
        XCTAssertEqual(seen.map(\.body), [
            "string \"org.mprisd.Test\" array [ dict entry( string \"Name\" variant string \"anonymous\" ) ] array [ ]",
        ], "a Set with interface '' was not announced")
    }
}

/// Signals a subscription received.
final class InteropInbox: Sendable {
    let messages = Mutex<[Message]>([])
}
