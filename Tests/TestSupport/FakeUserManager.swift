import DBus
import Foundation

/// A stand-in for the systemd user manager on a private session bus (no user manager runs in a
/// test): python3-dbusmock owning `org.freedesktop.systemd1` with the one method of
/// `org.freedesktop.systemd1.Manager` that `mprisd doctor` asks, `GetUnitFileState(s) → s`,
/// answering from the states the test sets — and, for a unit it has none for, the error the real
/// manager gives for a unit file that does not exist.
public final class FakeUserManager: Sendable {
    public static let name = "org.freedesktop.systemd1"
    public static let path = "/org/freedesktop/systemd1"
    public static let interface = "org.freedesktop.systemd1.Manager"

    private let mock: BackgroundProcess
    private let connection: Connection

    private init(mock: BackgroundProcess, connection: Connection) {
        self.mock = mock
        self.connection = connection
    }

    /// Starts the stand-in on `bus` (the session bus) with `states` (unit → state).
    public static func start(on bus: TestBus, states: [String: String] = [:],
                             timeout: Duration = .seconds(10)) async throws -> FakeUserManager {
        let mock = try BackgroundProcess(name: "dbusmock systemd1", FakeBluez.python,
                                         ["-m", "dbusmock", name, path, interface],
                                         environment: TestBus.environment(session: bus, system: nil))
        let connection = try Connection(address: bus.address)
        do {
            let owned = EventRecord<Bool>()
            let watch = try await connection.watchNameOwner(name) { owner in
                if owner != nil { owned.append(true) }
            }
            defer { watch.cancel() }
            try await owned.wait(for: "\(name) to get an owner", timeout: timeout) { $0.first }
        } catch {
            mock.stop()
            connection.close()
            throw TestSupportError("\(error)\ndbusmock: \(mock.standardError)")
        }
        let manager = FakeUserManager(mock: mock, connection: connection)
        try await manager.set(states)
        return manager
    }

    /// The states `GetUnitFileState` answers from now on (the method is defined anew).
    public func set(_ states: [String: String]) async throws {
        let table = states.sorted { $0.key < $1.key }.map { "'\($0.key)': '\($0.value)'" }.joined(separator: ", ")
        let code = """
            states = {\(table)}
            if args[0] not in states:
                raise dbus.exceptions.DBusException('No such file or directory', name='org.freedesktop.DBus.Error.FileNotFound')
            ret = states[args[0]]
            """
        _ = try await connection.call(destination: Self.name, path: try ObjectPath(Self.path), interface: "org.freedesktop.DBus.Mock",
                                      member: "AddMethod", [.string(Self.interface), .string("GetUnitFileState"), .string("s"),
                                                            .string("s"), .string(code)])
    }

    /// User units that can be masked, unmasked, stopped and started, as `systemctl --user` does
    /// it: `units` maps a unit to its file state ("enabled", "disabled") and whether it runs.
    /// `MaskUnitFiles` makes a unit "masked" and `UnmaskUnitFiles` gives back the state it had
    /// (a mask leaves an enabled unit's `wants` links); `GetUnit` answers for a unit that runs or
    /// ran, its object carrying `ActiveState`; `StopUnit` and `StartUnit` switch that; `Reload`
    /// does nothing. Replaces `GetUnitFileState`'s table.
    public func addUnits(_ units: [String: (file: String, active: Bool)]) async throws {
        let states = units.sorted { $0.key < $1.key }.map { "'\($0.key)': '\($0.value.file)'" }.joined(separator: ", ")
        var setup = "self.states = {\(states)}\nself.masked = {}\n"
        for (unit, value) in units.sorted(by: { $0.key < $1.key }) {
            let path = Self.unitPath(unit)
            setup += "self.AddObject('\(path)', 'org.freedesktop.systemd1.Unit', {'Id': '\(unit)', 'ActiveState': '\(value.active ? "active" : "inactive")'}, [])\n"
        }
        let noFile = "raise dbus.exceptions.DBusException('No such file or directory', name='org.freedesktop.DBus.Error.FileNotFound')"
        let path = "'/org/freedesktop/systemd1/unit/' + ''.join(c if c.isalnum() else '_%02x' % ord(c) for c in args[0])"
        let methods: [(String, String, String, String)] = [
            ("GetUnitFileState", "s", "s", "if args[0] not in self.states:\n    \(noFile)\nret = self.states[args[0]]"),
            ("MaskUnitFiles", "asbb", "a(sss)", "for u in args[0]:\n    self.masked.setdefault(u, self.states.get(u, ''))\n    self.states[u] = 'masked'\nret = []"),
            ("UnmaskUnitFiles", "asb", "a(sss)", "for u in args[0]:\n    if u in self.masked:\n        self.states[u] = self.masked.pop(u)\nret = []"),
            ("Reload", "", "", "pass"),
            ("GetUnit", "s", "o", "p = \(path)\nif p not in objects:\n    raise dbus.exceptions.DBusException('Unit ' + args[0] + ' not loaded.', name='org.freedesktop.systemd1.NoSuchUnit')\nret = p"),
            ("StopUnit", "ss", "o", "p = \(path)\nobjects[p].props['org.freedesktop.systemd1.Unit']['ActiveState'] = 'inactive'\nret = '/org/freedesktop/systemd1/job/1'"),
            ("StartUnit", "ss", "o", "p = \(path)\nif self.states.get(args[0], '').startswith('masked'):\n    raise dbus.exceptions.DBusException('Unit ' + args[0] + ' is masked.', name='org.freedesktop.systemd1.UnitMasked')\nobjects[p].props['org.freedesktop.systemd1.Unit']['ActiveState'] = 'active'\nret = '/org/freedesktop/systemd1/job/2'"),
        ]
        let table = methods.map { DBusValue.struct([.string($0.0), .string($0.1), .string($0.2), .string($0.3)]) }
        // The state lives on the mock object: a method of the test's own sets it up, once.
        _ = try await connection.call(destination: Self.name, path: try ObjectPath(Self.path), interface: "org.freedesktop.DBus.Mock",
                                      member: "AddMethod", [.string("org.mprisd.Test"), .string("SetUpUnits"), .string(""), .string(""),
                                                            .string(setup)])
        _ = try await connection.call(destination: Self.name, path: try ObjectPath(Self.path), interface: "org.mprisd.Test",
                                      member: "SetUpUnits", [])
        _ = try await connection.call(destination: Self.name, path: try ObjectPath(Self.path), interface: "org.freedesktop.DBus.Mock",
                                      member: "AddMethods", [.string(Self.interface), .array(element: .struct([.string, .string, .string, .string]), table)])
    }

    /// The object path systemd gives `unit` (bus-escaped: `mpris_2dproxy_2eservice`).
    public static func unitPath(_ unit: String) -> String {
        "/org/freedesktop/systemd1/unit/" + unit.unicodeScalars.map { scalar in
            (scalar.properties.isAlphabetic && scalar.isASCII) || ("0"..."9").contains(Character(scalar))
                ? String(scalar) : String(format: "_%02x", scalar.value)
        }.joined()
    }

    /// The unit's `GetUnitFileState` and `ActiveState` now.
    public func unit(_ unit: String) async throws -> (file: String, active: String) {
        let file = try await connection.call(destination: Self.name, path: try ObjectPath(Self.path), interface: Self.interface,
                                             member: "GetUnitFileState", [.string(unit)])
        let active = try await connection.call(destination: Self.name, path: try ObjectPath(Self.unitPath(unit)),
                                               interface: "org.freedesktop.DBus.Properties", member: "Get",
                                               [.string("org.freedesktop.systemd1.Unit"), .string("ActiveState")])
        guard case .string(let state)? = file.first, case .variant(.string(let running))? = active.first else {
            throw TestSupportError("the stand-in answered \(file) and \(active)")
        }
        return (state, running)
    }

    public func stop() {
        mock.stop()
        connection.close()
    }

    deinit {
        stop()
    }
}
