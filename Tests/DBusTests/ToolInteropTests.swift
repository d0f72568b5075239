import DBus
import Foundation
import Synchronization
import TestSupport
import XCTest

// The binding against the real D-Bus tools (busctl, gdbus, dbus-send, dbus-monitor), as issue 2's
// "How it is tested" asks. This file holds the shared test service and base class; the
// tests for each concern live in `ToolInteropTests+*.swift`.

/// Names of the test service.
enum Interop {
    static let name = "org.mprisd.ToolTest"
    static let path = "/org/mprisd/Test"
    static let iface = "org.mprisd.Test"
    static let boom = "org.mprisd.Test.Error.Boom"
    static let boomMessage = "the handler blew up on purpose"
    static let properties = "org.freedesktop.DBus.Properties"

    /// One echo method per type: `Echo<suffix>(T) → T`.
    static let echoTypes: [(suffix: String, type: DBusType)] = [
        ("Byte", .byte), ("Bool", .boolean), ("Int16", .int16), ("UInt16", .uint16),
        ("Int32", .int32), ("UInt32", .uint32), ("Int64", .int64), ("UInt64", .uint64),
        ("Double", .double), ("Str", .string), ("Path", .objectPath), ("Sig", .signature),
        ("Fd", .unixFD), ("Strings", .array(.string)), ("Ints", .array(.int32)),
        ("Bytes", .array(.byte)), ("ByteArrays", .array(.array(.byte))),
        ("Pairs", .array(.struct([.int32, .string]))),
        ("Vardict", .dictionary(key: .string, value: .variant)),
        ("ByteKeys", .dictionary(key: .byte, value: .string)),
        ("IntKeys", .dictionary(key: .int64, value: .string)),
        ("Managed", .dictionary(key: .objectPath, value: .dictionary(key: .string, value: .variant))),
        ("Struct", .struct([.int32, .array(.string)])), ("Variant", .variant),
    ]

    /// `EchoBasics`: every basic type but `h` in one call.
    static let basics: [DBusType] = [.byte, .boolean, .int16, .uint16, .int32, .uint32, .int64, .uint64,
                                     .double, .string, .objectPath, .signature]
}

/// A Swift error that is not a `DBusError` (must arrive as `org.freedesktop.DBus.Error.Failed`).
struct InteropPlainError: Error, CustomStringConvertible {
    var description: String { "a plain Swift error" }
}

/// The mutable state behind the test service: property values and side-effect counters.
final class InteropState: Sendable {
    let values = Mutex<[String: DBusValue]>([
        "Name": .string("initial"),
        "Volume": .double(0.5),
        "Position": .int64(0),
        "Identity": .string("mprisd test object"),
        "Token": .string("t0"),
        "Quiet": .int32(0),
    ])
    let bumps = Mutex(0)
    /// Calls of the task handlers (`EchoAsync`, `BoomAsync`) that have returned or thrown.
    let asyncDone = Mutex(0)

    subscript(name: String) -> DBusValue {
        get { values.withLock { $0[name]! } }
        set { values.withLock { $0[name] = newValue } }
    }

    func getter(_ name: String) -> @Sendable () throws -> DBusValue {
        { [self] in self[name] }
    }

    func setter(_ name: String) -> @Sendable (DBusValue) throws -> Void {
        { [self] value in self[name] = value }
    }

    /// The `org.mprisd.Test` interface.
    func interface() -> Interface {
        var methods: [Method] = [
            .immediate("Echo", inputs: [Argument("text", .string)], outputs: [Argument("text", .string)]) { $0.body },
            .task("EchoAsync", inputs: [Argument("text", .string)], outputs: [Argument("text", .string)]) { [self] call in
                defer { asyncDone.withLock { $0 += 1 } }
                return call.body
            },
            .immediate("EchoBasics", inputs: Interop.basics.map { Argument(nil, $0) },
                       outputs: Interop.basics.map { Argument(nil, $0) }) { $0.body },
            .immediate("Boom") { _ in throw DBusError(Interop.boom, Interop.boomMessage) },
            .task("BoomAsync") { [self] _ in
                defer { asyncDone.withLock { $0 += 1 } }
                throw DBusError(Interop.boom, Interop.boomMessage)
            },
            .immediate("Fail") { _ in throw InteropPlainError() },
            .immediate("Bump") { [self] _ in
                bumps.withLock { $0 += 1 }
                return []
            },
            .immediate("Bumps", outputs: [Argument("count", .uint32)]) { [self] _ in
                [.uint32(UInt32(bumps.withLock { $0 }))]
            },
            .immediate("Lie", outputs: [Argument("text", .string)]) { _ in [.int32(7)] },
            .immediate("Nul", outputs: [Argument("text", .string)]) { _ in [.string("a\u{0}b")] },
            .immediate("BadErrorName") { _ in throw DBusError("not an error name", "invalid name") },
            .immediate("BadErrorMessage") { _ in throw DBusError(Interop.boom, "NUL \u{0} inside") },
            .immediate("Divide", inputs: [Argument("numerator", .int32), Argument("denominator", .int32)],
                       outputs: [Argument("quotient", .int32)]) { call in
                let d = try call.argument(1, as: Int32.self)
                guard d != 0 else { throw DBusError.invalidArgs("division by zero") }
                return [.int32(try call.argument(0, as: Int32.self) / d)]
            },
        ]
        for (suffix, type) in Interop.echoTypes {
            methods.append(.immediate("Echo\(suffix)", inputs: [Argument("value", type)],
                                      outputs: [Argument("value", type)]) { $0.body })
        }
        return Interface(Interop.iface, methods: methods, properties: [
            Property("Name", .string, get: getter("Name"), set: setter("Name")),
            Property("Volume", .double, get: getter("Volume"), set: setter("Volume")),
            Property("Position", .int64, changeSignal: .none, get: getter("Position"), set: setter("Position")),
            Property("Identity", .string, changeSignal: .constant, get: getter("Identity")),
            Property("Token", .string, changeSignal: .invalidates, get: getter("Token")),
            Property("Quiet", .int32, changeSignal: .none, get: getter("Quiet")),
        ], signals: [
            SignalDescription("Sentinel", [Argument("mark", .uint32)]),
            SignalDescription("Changed", [Argument("what", .string), Argument("details", .dictionary(key: .string, value: .variant))]),
            SignalDescription("Tick"),
        ])
    }
}

/// Base of the tool interop tests: the test service and the tools pointed at the private bus.
class InteropTestCase: BusTestCase {
    let state = InteropState()

    /// Exports the test object at `Interop.path` and owns `Interop.name`.
    @discardableResult
    func startService() async throws -> (Connection, ExportedObject) {
        try await service(Interop.name, path: Interop.path, [state.interface()])
    }

    /// Runs the real tool `/usr/bin/NAME` against the test bus (gdbus finds it through
    /// `DBUS_SESSION_BUS_ADDRESS`).
    func run(_ name: String, _ arguments: [String]) async throws -> ToolResult {
        try await Interop.runTool("/usr/bin/\(name)", arguments, environment: bus.environment)
    }

    func busctl(_ arguments: [String]) async throws -> ToolResult {
        try await run("busctl", ["--address=\(bus.address)"] + arguments)
    }

    /// `busctl call NAME PATH IFACE METHOD ARGS…` on the test object (after `--`, so that negative
    /// numbers are not taken for options).
    func busctlCall(_ method: String, _ arguments: [String] = [], interface: String = Interop.iface,
                    path: String = Interop.path, options: [String] = []) async throws -> ToolResult {
        try await busctl(options + ["call", "--", Interop.name, path, interface, method] + arguments)
    }

    /// `gdbus call` on the test object (gdbus reads `DBUS_SESSION_BUS_ADDRESS`, set by the fixture).
    func gdbusCall(_ method: String, _ arguments: [String] = [], interface: String = Interop.iface,
                   path: String = Interop.path) async throws -> ToolResult {
        try await run("gdbus", ["call", "--session", "--dest", Interop.name, "--object-path", path,
                                 "--method", "\(interface).\(method)", "--"] + arguments)
    }

    /// `dbus-send --print-reply` on the test object.
    func dbusSend(_ method: String, _ arguments: [String] = [], interface: String = Interop.iface,
                  path: String = Interop.path, reply: Bool = true) async throws -> ToolResult {
        // Without --print-reply dbus-send sends a one-way call (NO_REPLY_EXPECTED) and exits.
        let options = ["--bus=\(bus.address)", "--dest=\(Interop.name)", "--type=method_call"]
            + (reply ? ["--print-reply", "--reply-timeout=5000"] : [])
        return try await run("dbus-send", options + [path, "\(interface).\(method)"] + arguments)
    }

    /// Asserts a tool succeeded; returns its stdout.
    @discardableResult
    func succeeded(_ result: ToolResult, _ what: String = "",
                   file: StaticString = #filePath, line: UInt = #line) -> String {
        XCTAssertEqual(result.status, 0, "\(what) failed: \(result.stderr)", file: file, line: line)
        return result.stdout
    }

    /// Asserts a tool failed with the D-Bus error `name` (dbus-send and gdbus print the name).
    func failed(_ result: ToolResult, with name: String, _ messagePart: String? = nil,
                file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNotEqual(result.status, 0, "expected \(name), got: \(result.stdout)", file: file, line: line)
        XCTAssertTrue(result.stderr.contains(name), "expected \(name) in: \(result.stderr)", file: file, line: line)
        if let messagePart {
            XCTAssertTrue(result.stderr.contains(messagePart), "expected '\(messagePart)' in: \(result.stderr)",
                          file: file, line: line)
        }
    }

    /// The service still answers a good call (after a bad one).
    func assertStillServing(_ mark: String = "still here", file: StaticString = #filePath, line: UInt = #line) async throws {
        let result = try await busctlCall("Echo", ["s", mark])
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        XCTAssertEqual(result.stdout, "s \"\(mark)\"\n", file: file, line: line)
    }
}
