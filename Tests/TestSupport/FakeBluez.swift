import Foundation
import Synchronization

/// A value a dbusmock method was called with, with its D-Bus type kept (`x` stays distinct from `i`).
public indirect enum MockValue: Sendable, Hashable, CustomStringConvertible {
    case boolean(Bool)
    /// A signed integer and its type code: `n`, `i`, `x`.
    case signed(Int64, code: String)
    /// An unsigned integer and its type code: `y`, `q`, `u`, `t`.
    case unsigned(UInt64, code: String)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    case array([MockValue])
    /// A dictionary; keys are shown as text (MPRIS and BlueZ only use string keys).
    case dictionary([String: MockValue])
    case `struct`([MockValue])

    public var string: String? {
        switch self {
        case .string(let value), .objectPath(let value), .signature(let value): value
        default: nil
        }
    }

    public var bool: Bool? {
        if case .boolean(let value) = self { return value }
        return nil
    }

    public var int64: Int64? {
        switch self {
        case .signed(let value, _): value
        case .unsigned(let value, _): Int64(exactly: value)
        default: nil
        }
    }

    public var double: Double? {
        if case .double(let value) = self { return value }
        return nil
    }

    /// The D-Bus type code of a basic value (`s`, `o`, `x`, …); `a`, `a{}` or `()` for containers.
    public var typeCode: String {
        switch self {
        case .boolean: "b"
        case .signed(_, let code), .unsigned(_, let code): code
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .array: "a"
        case .dictionary: "a{}"
        case .struct: "()"
        }
    }

    /// The value at `key` of a dictionary.
    public subscript(key: String) -> MockValue? {
        if case .dictionary(let entries) = self { return entries[key] }
        return nil
    }

    public var description: String {
        switch self {
        case .boolean(let value): "\(value)"
        case .signed(let value, let code): code == "i" ? "\(value)" : "\(code) \(value)"
        case .unsigned(let value, let code): "\(code) \(value)"
        case .double(let value): "\(value)"
        case .string(let value): "'\(value)'"
        case .objectPath(let value): "objectpath '\(value)'"
        case .signature(let value): "signature '\(value)'"
        case .array(let values): "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .dictionary(let entries):
            "{" + entries.sorted { $0.key < $1.key }.map { "'\($0.key)': \($0.value)" }.joined(separator: ", ") + "}"
        case .struct(let values): "(" + values.map(\.description).joined(separator: ", ") + ")"
        }
    }
}

extension MockValue: Decodable {
    private enum Keys: String, CodingKey { case t, v }

    /// The helper's JSON: `{"t": type, "v": value}`; dictionaries as `[[key, value], …]`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        let code = try container.decode(String.self, forKey: .t)
        switch code {
        case "b": self = .boolean(try container.decode(Bool.self, forKey: .v))
        case "n", "i", "x", "h": self = .signed(try container.decode(Int64.self, forKey: .v), code: code)
        case "y", "q", "u", "t": self = .unsigned(try container.decode(UInt64.self, forKey: .v), code: code)
        case "d": self = .double(try container.decode(Double.self, forKey: .v))
        case "s": self = .string(try container.decode(String.self, forKey: .v))
        case "o": self = .objectPath(try container.decode(String.self, forKey: .v))
        case "g": self = .signature(try container.decode(String.self, forKey: .v))
        case "a": self = .array(try container.decode([MockValue].self, forKey: .v))
        case "()": self = .struct(try container.decode([MockValue].self, forKey: .v))
        case "a{}":
            let pairs = try container.decode([[MockValue]].self, forKey: .v)
            var entries: [String: MockValue] = [:]
            for pair in pairs where pair.count == 2 {
                entries[pair[0].string ?? pair[0].description] = pair[1]
            }
            self = .dictionary(entries)
        default:
            throw DecodingError.dataCorruptedError(forKey: .t, in: container, debugDescription: "unknown type \(code)")
        }
    }
}

/// One call a dbusmock object received (from its `MethodCalled` signal).
public struct MockCall: Sendable, CustomStringConvertible {
    /// The mock object called (`/org/bluez/hci0`).
    public let path: String
    public let method: String
    public let arguments: [MockValue]

    public var description: String { "\(path) \(method)(\(arguments.map(\.description).joined(separator: ", ")))" }
}

/// A `Media1.RegisterPlayer(o path, a{sv} properties)` call: how bluetoothd saw a player.
public struct RegisteredPlayer: Sendable {
    /// The object path mpris-proxy gave the player on the system bus (`/_1_7` for `:1.7`).
    public let path: String
    public let properties: [String: MockValue]
}

/// A fake bluetoothd: python3-dbusmock's `bluez5` template on a private system bus, with one
/// powered adapter whose `org.bluez.Media1` also has `RegisterPlayer(oa{sv})` and
/// `UnregisterPlayer(o)` (the template only has the endpoint methods), so mpris-proxy can register
/// players and every call is recorded.
///
/// A small python3-dbus helper on the same bus does the set-up (`Mock.AddAdapter`, then
/// `Mock.AddMethods`) once `org.bluez` has an owner, streams the mock's `MethodCalled` signals
/// (that is how waits are woken, without polling), and answers `GetMethodCalls` on request.
///
/// Start mpris-proxy only after `start` returned: the adapter appears (InterfacesAdded) a moment
/// before `RegisterPlayer` is added to it.
public final class FakeBluez: Sendable {
    public static let python = "/usr/bin/python3"  // Debian's, where python3-dbusmock is installed

    public let bus: TestBus
    /// The adapter's object path (`/org/bluez/hci0`).
    public let adapterPath: String
    private let mock: BackgroundProcess
    private let helper: BackgroundProcess
    private let record: EventRecord<HelperMessage>
    private let directory: URL
    private let nextRequest = Atomic<Int>(1)

    fileprivate enum HelperMessage: Sendable {
        case ready(adapter: String)
        case call(MockCall)
        case reply(id: Int, calls: [[MockValue]]?, error: String?)
    }

    private init(bus: TestBus, adapterPath: String, mock: BackgroundProcess, helper: BackgroundProcess,
                 record: EventRecord<HelperMessage>, directory: URL) {
        self.bus = bus
        self.adapterPath = adapterPath
        self.mock = mock
        self.helper = helper
        self.record = record
        self.directory = directory
    }

    /// Starts the mock on `bus` (a `TestBus(.system)`), adds adapter `adapter` and the Media1
    /// player methods, and returns once all of that is in place.
    public static func start(on bus: TestBus, adapter: String = "hci0", alias: String = "mprisd-test",
                             timeout: Duration = .seconds(10)) async throws -> FakeBluez {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("mprisd-bluez-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let script = directory.appendingPathComponent("bluez_helper.py")
        try helperScript.write(to: script, atomically: true, encoding: .utf8)

        let record = EventRecord<HelperMessage>()
        let environment = TestBus.environment(session: nil, system: bus)
        let mock: BackgroundProcess
        let helper: BackgroundProcess
        do {
            mock = try BackgroundProcess(name: "dbusmock bluez5", python,
                                         ["-m", "dbusmock", "--system", "--template", "bluez5"],
                                         environment: environment,
                                         onExit: { status, stderr in
                                             record.close("dbusmock (bluez5) exited with status \(status): \(stderr)")
                                         })
            helper = try BackgroundProcess(name: "bluez helper", python,
                                           ["-u", script.path, bus.address, adapter, alias],
                                           environment: environment, stdin: true,
                                           onLine: { line in
                                               if let message = HelperMessage(line: line) { record.append(message) }
                                           },
                                           onExit: { status, stderr in
                                               record.close("the bluez helper exited with status \(status): \(stderr)")
                                           })
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        do {
            let path = try await record.wait(for: "the bluez5 mock and its adapter", timeout: timeout) { messages in
                messages.lazy.compactMap { message -> String? in
                    if case .ready(let adapter) = message { return adapter }
                    return nil
                }.first
            }
            return FakeBluez(bus: bus, adapterPath: path, mock: mock, helper: helper, record: record,
                             directory: directory)
        } catch {
            helper.stop()
            mock.stop()
            try? FileManager.default.removeItem(at: directory)
            throw TestSupportError("\(error)\ndbusmock: \(mock.standardError)\nhelper: \(helper.standardError)")
        }
    }

    /// Every call the mock's objects received so far, in order (adapter creation included).
    public var calls: [MockCall] {
        record.elements.compactMap {
            if case .call(let call) = $0 { return call }
            return nil
        }
    }

    /// Every `RegisterPlayer` call so far, in order.
    public var registeredPlayers: [RegisteredPlayer] { Self.registrations(in: calls) }

    /// The paths of every `UnregisterPlayer` call so far, in order.
    public var unregisteredPlayers: [String] { Self.unregistrations(in: calls) }

    /// The players registered and not unregistered since (by path).
    public var currentPlayers: [RegisteredPlayer] { Self.current(in: calls) }

    /// Waits for a `RegisterPlayer` call satisfying `condition` (any, by default) and returns it;
    /// earlier calls count too.
    public func waitForRegisteredPlayer(timeout: Duration = .seconds(10),
                                        where condition: @escaping @Sendable (RegisteredPlayer) -> Bool = { _ in true })
        async throws -> RegisteredPlayer {
        try await record.wait(for: "RegisterPlayer on \(adapterPath)", timeout: timeout) { messages in
            Self.registrations(in: Self.calls(in: messages)).first(where: condition)
        }
    }

    /// Waits until `count` `RegisterPlayer` calls satisfying `condition` were made (earlier ones
    /// count too) and returns them.
    public func waitForRegisteredPlayers(count: Int, timeout: Duration = .seconds(10),
                                         where condition: @escaping @Sendable (RegisteredPlayer) -> Bool)
        async throws -> [RegisteredPlayer] {
        try await record.wait(for: "\(count) RegisterPlayer calls on \(adapterPath)", timeout: timeout) { messages in
            let found = Self.registrations(in: Self.calls(in: messages)).filter(condition)
            return found.count >= count ? found : nil
        }
    }

    /// Waits for `UnregisterPlayer(path)`.
    public func waitForUnregisteredPlayer(_ path: String, timeout: Duration = .seconds(10)) async throws {
        try await record.wait(for: "UnregisterPlayer(\(path)) on \(adapterPath)", timeout: timeout) { messages in
            Self.unregistrations(in: Self.calls(in: messages)).contains(path) ? true : nil
        }
    }

    /// The arguments of every call of `method` on `path` (default: the adapter), read from the
    /// mock's own call log with `org.freedesktop.DBus.Mock.GetMethodCalls`.
    public func methodCalls(_ method: String, on path: String? = nil,
                            timeout: Duration = .seconds(10)) async throws -> [[MockValue]] {
        try await request(["op": "calls", "path": path ?? adapterPath, "method": method],
                          what: "GetMethodCalls(\(method))", timeout: timeout)
    }

    /// Sends `fields` (with a fresh `id`) to the helper and waits for its reply: the calls it
    /// carries, or its error thrown.
    @discardableResult
    func request(_ fields: [String: String], what: String, timeout: Duration) async throws -> [[MockValue]] {
        let id = nextRequest.add(1, ordering: .relaxed).oldValue
        var request: [String: Any] = fields
        request["id"] = id
        let data = try JSONSerialization.data(withJSONObject: request)
        try helper.send(line: String(decoding: data, as: UTF8.self))
        let (calls, error) = try await record.wait(for: what, timeout: timeout) { messages in
            messages.lazy.compactMap { message -> ([[MockValue]]?, String?)? in
                if case .reply(id, let calls, let error) = message { return (calls, error) }
                return nil
            }.first
        }
        if let error { throw TestSupportError("\(what) failed: \(error)") }
        return calls ?? []
    }

    /// What the mock and the helper wrote on standard error (for failure messages).
    public var diagnostics: String {
        "dbusmock: \(mock.standardError)\nhelper: \(helper.standardError)"
    }

    /// Kills the mock and the helper (SIGKILL) and removes the temporary files. Idempotent.
    public func stop() {
        record.close("the fake bluetoothd was stopped")
        helper.stop()
        mock.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    deinit {
        stop()
    }

    private static func calls(in messages: [HelperMessage]) -> [MockCall] {
        messages.compactMap {
            if case .call(let call) = $0 { return call }
            return nil
        }
    }

    private static func registrations(in calls: [MockCall]) -> [RegisteredPlayer] {
        calls.compactMap { call in
            guard call.method == "RegisterPlayer", call.arguments.count == 2,
                  case .objectPath(let path) = call.arguments[0],
                  case .dictionary(let properties) = call.arguments[1] else { return nil }
            return RegisteredPlayer(path: path, properties: properties)
        }
    }

    private static func unregistrations(in calls: [MockCall]) -> [String] {
        calls.compactMap { call in
            guard call.method == "UnregisterPlayer", case .objectPath(let path)? = call.arguments.first else {
                return nil
            }
            return path
        }
    }

    private static func current(in calls: [MockCall]) -> [RegisteredPlayer] {
        var players: [RegisteredPlayer] = []
        for call in calls {
            if let registered = registrations(in: [call]).first {
                players.removeAll { $0.path == registered.path }
                players.append(registered)
            } else if let path = unregistrations(in: [call]).first {
                players.removeAll { $0.path == path }
            }
        }
        return players
    }

    /// The helper: python3-dbus and GLib, both dependencies of python3-dbusmock.
    private static let helperScript = #"""
    import json, sys
    import dbus, dbus.mainloop.glib
    from gi.repository import GLib

    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    address, adapter, alias = sys.argv[1:4]
    bus = dbus.bus.BusConnection(address)
    bus.set_exit_on_disconnect(False)
    loop = GLib.MainLoop()
    MOCK = 'org.freedesktop.DBus.Mock'

    def emit(obj):
        sys.stdout.write(json.dumps(obj) + '\n')
        sys.stdout.flush()

    INTS = ((dbus.Byte, 'y'), (dbus.Int16, 'n'), (dbus.UInt16, 'q'), (dbus.Int32, 'i'),
            (dbus.UInt32, 'u'), (dbus.Int64, 'x'), (dbus.UInt64, 't'))

    def enc(v):
        if isinstance(v, (dbus.Boolean, bool)):
            return {'t': 'b', 'v': bool(v)}
        for cls, code in INTS:
            if isinstance(v, cls):
                return {'t': code, 'v': int(v)}
        if isinstance(v, int):
            return {'t': 'x', 'v': int(v)}
        if isinstance(v, float):
            return {'t': 'd', 'v': float(v)}
        if isinstance(v, dbus.ObjectPath):
            return {'t': 'o', 'v': str(v)}
        if isinstance(v, dbus.Signature):
            return {'t': 'g', 'v': str(v)}
        if isinstance(v, str):
            return {'t': 's', 'v': str(v)}
        if isinstance(v, dict):
            return {'t': 'a{}', 'v': [[enc(k), enc(x)] for k, x in v.items()]}
        if isinstance(v, tuple):
            return {'t': '()', 'v': [enc(x) for x in v]}
        if isinstance(v, (list, bytes, bytearray)):
            return {'t': 'a', 'v': [enc(x) for x in v]}
        return {'t': 's', 'v': repr(v)}

    def called(name, args, path=None):
        emit({'event': 'call', 'path': str(path), 'method': str(name), 'args': [enc(a) for a in args]})

    bus.add_signal_receiver(called, signal_name='MethodCalled', dbus_interface=MOCK, path_keyword='path')
    bus.add_signal_receiver(loop.quit, signal_name='Disconnected', dbus_interface='org.freedesktop.DBus.Local',
                            path='/org/freedesktop/DBus/Local')

    done = []

    PRESS = """import dbus.lowlevel
    m = dbus.lowlevel.MethodCallMessage(args[0], args[1], 'org.mpris.MediaPlayer2.Player', args[2])
    m.set_no_reply(True)
    self.connection.send_message(m)
    """
    SEEK = """import dbus.lowlevel
    m = dbus.lowlevel.MethodCallMessage(args[0], args[1], 'org.mpris.MediaPlayer2.Player', 'Seek')
    m.append(args[2], signature='x')
    m.set_no_reply(True)
    self.connection.send_message(m)
    """
    SETTING = """import dbus.lowlevel
    m = dbus.lowlevel.MethodCallMessage(args[0], args[1], 'org.freedesktop.DBus.Properties', 'Set')
    m.append('org.mpris.MediaPlayer2.Player', args[2], args[3], signature='ssv')
    m.set_no_reply(True)
    self.connection.send_message(m)
    """

    def owner_changed(owner):
        if not owner or done:
            return
        done.append(owner)
        try:
            emit({'event': 'ready', 'adapter': add_adapter()})
        except dbus.DBusException as e:
            sys.stderr.write('set-up failed: %s\n' % e)
            loop.quit()

    def add_adapter():
        path = bus.call_blocking('org.bluez', '/', 'org.bluez.Mock', 'AddAdapter', 'ss', [adapter, alias])
        bus.call_blocking('org.bluez', path, MOCK, 'AddMethods', 'sa(ssss)',
                          ['org.bluez.Media1', [('RegisterPlayer', 'oa{sv}', '', ''),
                                                ('UnregisterPlayer', 'o', '', '')]])
        # What bluetoothd does for an AVRCP button, from org.bluez's own connection: a one-way
        # call of a registered player's method (FakeBluez.press).
        bus.call_blocking('org.bluez', path, MOCK, 'AddMethod', 'sssss',
                          ['org.mprisd.FakeBluez1', 'Press', 'sos', '', PRESS])
        # A seek as bluetoothd forwards AVRCP's fast-forward / rewind (FakeBluez.seek).
        bus.call_blocking('org.bluez', path, MOCK, 'AddMethod', 'sssss',
                          ['org.mprisd.FakeBluez1', 'Seek', 'sox', '', SEEK])
        # An AVRCP repeat or shuffle setting, from org.bluez's connection: `Set` of the
        # registered player's LoopStatus or Shuffle (FakeBluez.setSetting).
        bus.call_blocking('org.bluez', path, MOCK, 'AddMethod', 'sssss',
                          ['org.mprisd.FakeBluez1', 'SetSetting', 'sosv', '', SETTING])
        # Media1 is listed on the adapter, as bluetoothd lists it, only now that players can
        # register there (GetManagedObjects shows it from here on; InterfacesAdded announces it).
        bus.call_blocking('org.bluez', path, MOCK, 'AddProperty', 'ssv',
                          ['org.bluez.Media1', 'SupportedUUIDs',
                           dbus.Array(['0000110a-0000-1000-8000-00805f9b34fb'], signature='s')])
        bus.call_blocking('org.bluez', '/', MOCK, 'EmitSignal', 'sssav',
                          ['org.freedesktop.DBus.ObjectManager', 'InterfacesAdded', 'oa{sa{sv}}',
                           [dbus.ObjectPath(path),
                            dbus.Dictionary({'org.bluez.Media1': dbus.Dictionary(
                                {'SupportedUUIDs': dbus.Array(['0000110a-0000-1000-8000-00805f9b34fb'],
                                                              signature='s')}, signature='sv')},
                                signature='sa{sv}')]])
        return str(path)

    bus.watch_name_owner('org.bluez', owner_changed)

    def on_stdin(fd, condition):
        line = sys.stdin.readline()
        if not line:
            loop.quit()
            return False
        request = json.loads(line)
        if request['op'] == 'replug':
            # The adapter unplugged and plugged in again (its devices and registrations gone).
            try:
                bus.call_blocking('org.bluez', '/', 'org.bluez.Mock', 'RemoveAdapterWithDevices', 's', [adapter])
                add_adapter()
                emit({'event': 'reply', 'id': request['id'], 'calls': []})
            except dbus.DBusException as e:
                emit({'event': 'reply', 'id': request['id'], 'error': str(e)})
            return True
        try:
            calls = bus.call_blocking('org.bluez', request['path'], MOCK, 'GetMethodCalls', 's',
                                      [request['method']])
            emit({'event': 'reply', 'id': request['id'], 'calls': [[enc(a) for a in args] for _, args in calls]})
        except dbus.DBusException as e:
            emit({'event': 'reply', 'id': request['id'], 'error': str(e)})
        return True

    GLib.io_add_watch(sys.stdin.fileno(), GLib.IO_IN | GLib.IO_HUP, on_stdin)
    loop.run()
    """#
}

extension FakeBluez.HelperMessage {
    private struct Line: Decodable {
        let event: String
        let adapter: String?
        let path: String?
        let method: String?
        let args: [MockValue]?
        let id: Int?
        let calls: [[MockValue]]?
        let error: String?
    }

    init?(line: String) {
        guard let decoded = try? JSONDecoder().decode(Line.self, from: Data(line.utf8)) else { return nil }
        switch decoded.event {
        case "ready":
            guard let adapter = decoded.adapter else { return nil }
            self = .ready(adapter: adapter)
        case "call":
            guard let path = decoded.path, let method = decoded.method else { return nil }
            self = .call(MockCall(path: path, method: method, arguments: decoded.args ?? []))
        case "reply":
            guard let id = decoded.id else { return nil }
            self = .reply(id: id, calls: decoded.calls, error: decoded.error)
        default:
            return nil
        }
    }
}
