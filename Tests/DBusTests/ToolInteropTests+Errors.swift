import DBus
import Foundation
import TestSupport
import XCTest

/// Error replies checked by name through dbus-send, gdbus and busctl; after every bad call the
/// service still answers a good one.
final class ToolInteropErrorTests: InteropTestCase {
    private let properties = Interop.properties

    func testUnknownMethodInterfaceObjectAndProperty() async throws {
        try await startService()
        failed(try await dbusSend("Nope"), with: DBusError.Name.unknownMethod, "interface org.mprisd.Test has no method Nope")
        try await assertStillServing()
        failed(try await dbusSend("Echo", ["string:x"], interface: "org.mprisd.Nope"), with: DBusError.Name.unknownInterface)
        try await assertStillServing()
        failed(try await dbusSend("Echo", ["string:x"], path: "/org/mprisd/Missing"), with: DBusError.Name.unknownObject)
        try await assertStillServing()
        failed(try await dbusSend("Get", ["string:\(Interop.iface)", "string:Nope"], interface: properties),
               with: DBusError.Name.unknownProperty)
        try await assertStillServing()
        failed(try await dbusSend("Get", ["string:org.mprisd.Nope", "string:Name"], interface: properties),
               with: DBusError.Name.unknownInterface)
        failed(try await dbusSend("GetAll", ["string:org.mprisd.Nope"], interface: properties),
               with: DBusError.Name.unknownInterface)
        failed(try await dbusSend("Frob", interface: properties), with: DBusError.Name.unknownMethod)
        failed(try await dbusSend("Frob", interface: "org.freedesktop.DBus.Introspectable"), with: DBusError.Name.unknownMethod)
        try await assertStillServing()
        // The same through gdbus (which prints the name as GDBus.Error:NAME) …
        failed(try await gdbusCall("Nope"), with: "GDBus.Error:\(DBusError.Name.unknownMethod)")
        failed(try await gdbusCall("Echo", ["'x'"], path: "/org/mprisd/Missing"),
               with: "GDBus.Error:\(DBusError.Name.unknownObject)")
        // … and busctl (which prints only the message).
        let busctl = try await busctlCall("Nope")
        XCTAssertNotEqual(busctl.status, 0)
        XCTAssertTrue(busctl.stderr.contains("interface org.mprisd.Test has no method Nope"), busctl.stderr)
        try await assertStillServing()
    }

    func testPropertyErrors() async throws {
        try await startService()
        failed(try await dbusSend("Set", ["string:\(Interop.iface)", "string:Identity", "variant:string:x"], interface: properties),
               with: DBusError.Name.propertyReadOnly, "Identity")
        try await assertStillServing()
        failed(try await dbusSend("Set", ["string:\(Interop.iface)", "string:Name", "variant:int32:5"], interface: properties),
               with: DBusError.Name.invalidArgs, "property Name is 's', not 'i'")
        try await assertStillServing()
        failed(try await dbusSend("Set", ["string:\(Interop.iface)", "string:Nope", "variant:int32:5"], interface: properties),
               with: DBusError.Name.unknownProperty)
        failed(try await dbusSend("Get", ["string:\(Interop.iface)"], interface: properties),
               with: DBusError.Name.invalidArgs, "Get takes 'ss', not 's'")
        failed(try await dbusSend("Set", ["string:\(Interop.iface)", "string:Name", "string:bare"], interface: properties),
               with: DBusError.Name.invalidArgs, "Set takes 'ssv', not 'sss'")
        // The failed Sets changed nothing.
        XCTAssertEqual(state["Name"], .string("initial"))
        XCTAssertEqual(state["Identity"], .string("mprisd test object"))
        // busctl set-property on a read-only property fails too.
        let busctl = try await busctl(["set-property", "--", Interop.name, Interop.path, Interop.iface, "Identity", "s", "x"])
        XCTAssertNotEqual(busctl.status, 0)
        XCTAssertTrue(busctl.stderr.contains("read-only"), busctl.stderr)
        try await assertStillServing()
    }

    func testInvalidArgsOnWrongSignatures() async throws {
        try await startService()
        failed(try await dbusSend("Echo", ["int32:5"]), with: DBusError.Name.invalidArgs, "Echo takes 's', not 'i'")
        try await assertStillServing()
        failed(try await dbusSend("Echo"), with: DBusError.Name.invalidArgs, "Echo takes 's', not ''")
        failed(try await dbusSend("Echo", ["string:a", "string:b"]), with: DBusError.Name.invalidArgs, "not 'ss'")
        failed(try await dbusSend("Introspect", ["string:a"], interface: "org.freedesktop.DBus.Introspectable"),
               with: DBusError.Name.invalidArgs)
        failed(try await dbusSend("EchoStrings", ["array:int32:1,2"]), with: DBusError.Name.invalidArgs, "not 'ai'")
        // A handler's own InvalidArgs.
        failed(try await dbusSend("Divide", ["int32:1", "int32:0"]), with: DBusError.Name.invalidArgs, "division by zero")
        let quotient = succeeded(try await busctlCall("Divide", ["ii", "9", "3"]))
        XCTAssertEqual(quotient, "i 3\n")
        try await assertStillServing()
    }

    func testHandlerErrorsArriveByName() async throws {
        try await startService()
        for method in ["Boom", "BoomAsync"] {
            failed(try await dbusSend(method), with: Interop.boom, Interop.boomMessage)
            failed(try await gdbusCall(method), with: "GDBus.Error:\(Interop.boom): \(Interop.boomMessage)")
            let busctl = try await busctlCall(method)
            XCTAssertNotEqual(busctl.status, 0)
            XCTAssertTrue(busctl.stderr.contains(Interop.boomMessage), busctl.stderr)
            try await assertStillServing()
        }
        // A Swift error that is not a DBusError: Failed, with its description.
        failed(try await dbusSend("Fail"), with: DBusError.Name.failed, "a plain Swift error")
        try await assertStillServing()
        // A handler whose reply breaks its declared signature: Failed, not a malformed reply.
        failed(try await dbusSend("Lie"), with: DBusError.Name.failed, "Lie produced 'i' but declares 's'")
        try await assertStillServing()
    }

    /// Every call gets exactly one answer: a handler that throws a `DBusError` the binding cannot
    /// send as it is (a name that is not an error name, a message with NUL) must still produce an
    /// error reply (Failed), not leave the caller waiting for its timeout.
    func testUnsendableHandlerErrorsStillGetAReply() async throws {
        try await startService()
        for method in ["BadErrorName", "BadErrorMessage"] {
            let result = try await run("dbus-send", ["--bus=\(bus.address)", "--dest=\(Interop.name)", "--print-reply",
                                                     "--reply-timeout=1500", Interop.path, "\(Interop.iface).\(method)"])
            XCTAssertNotEqual(result.status, 0)
            XCTAssertFalse(result.stderr.contains(DBusError.Name.noReply), "\(method) was never answered: \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(DBusError.Name.failed), "\(method): \(result.stderr)")
            try await assertStillServing()
        }
    }

    /// Peer's members are derived like the others, so their arguments are checked like Introspect's
    /// (which answers InvalidArgs when given any).
    /// `org.freedesktop.DBus.Peer` calls are answered by libdbus itself before any filter runs (as in
    /// every libdbus program, the C reference server included), and it ignores extra arguments.
    /// The binding answers only an interface-less `Ping`, and checks its arguments.
    func testPeerMethodsCheckTheirArguments() async throws {
        try await startService()
        succeeded(try await dbusSend("Ping", ["string:a"], interface: "org.freedesktop.DBus.Peer"))
        let client = try connect()
        do {
            _ = try await client.call(destination: Interop.name, path: try ObjectPath(Interop.path), interface: nil,
                                      member: "Ping", [.string("a")])
            XCTFail("an interface-less Ping with an argument must be refused")
        } catch {
            XCTAssertEqual(error.name, DBusError.Name.invalidArgs)
        }
        try await assertStillServing()
    }

    /// dbus-send without --print-reply fires a call and exits without waiting: the side effect
    /// still happens.
    func testFireAndForgetCallsFromDbusSendRun() async throws {
        try await startService()
        for _ in 0..<3 { succeeded(try await dbusSend("Bump", reply: false)) }
        let state = self.state
        let bumped = await eventually { state.bumps.withLock { $0 } == 3 }
        XCTAssertTrue(bumped, "fire-and-forget calls ran \(state.bumps.withLock { $0 }) times, not 3")
        let count = succeeded(try await busctlCall("Bumps"))
        XCTAssertEqual(count, "u 3\n")
        try await assertStillServing()
    }

    /// Calls flagged NO_REPLY_EXPECTED (busctl --expect-reply=false) run, and get no reply, not
    /// even an error reply, which dbus-monitor would show.
    func testNoReplyExpectedCallsRunWithoutAnyReply() async throws {
        let (connection, object) = try await startService()
        let monitor = try InteropMonitor(address: bus.address, rules: [
            "type='error'", "type='method_return'",
            "type='signal',interface='\(Interop.iface)',member='Sentinel'",
        ])
        defer { monitor.stop() }
        _ = try await monitor.sync(object, after: nil, mark: 1)
        let oneWay = ["--expect-reply=false"]
        for _ in 0..<2 { succeeded(try await busctlCall("Bump", options: oneWay)) }
        // Failing one-way calls: thrown by the handler (immediate and task), wrong signature,
        // unknown method, unknown object.
        succeeded(try await busctlCall("Boom", options: oneWay))
        succeeded(try await busctlCall("BoomAsync", options: oneWay))
        succeeded(try await busctlCall("Echo", ["i", "1"], options: oneWay))
        succeeded(try await busctlCall("Nope", options: oneWay))
        succeeded(try await busctlCall("Echo", ["s", "x"], path: "/nowhere", options: oneWay))
        succeeded(try await busctlCall("EchoAsync", ["s", "x"], options: oneWay))
        let state = self.state
        let bumped = await eventually { state.bumps.withLock { $0 } == 2 }
        XCTAssertTrue(bumped, "one-way calls ran \(state.bumps.withLock { $0 }) times, not 2")
        // The two task handlers have returned; their answers (had they any) are queued on the
        // service's I/O thread right after, ahead of the round trip queued next, so they would be
        // on the bus before the sentinel.
        let answered = await eventually { state.asyncDone.withLock { $0 } == 2 }
        XCTAssertTrue(answered, "the task handlers ran \(state.asyncDone.withLock { $0 }) times, not 2")
        try await connection.roundTrip()
        let seen = try await monitor.sync(object, after: 1, mark: 2)
        let fromService = seen.filter { $0.header.contains("sender=\(connection.uniqueName) ") }
        XCTAssertEqual(fromService, [], "the service answered one-way calls: \(fromService)")
        try await assertStillServing()
    }
}
