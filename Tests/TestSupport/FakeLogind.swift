import DBus
import Foundation

/// A fake systemd-logind: python3-dbusmock's `logind` template on a private system bus, driven
/// the way logind and a screen locker would drive it.
///
/// The template has `Mock.AddSession` (which creates the seat and the user too) and each
/// session's `SetLockedHint(b)`, which updates `LockedHint` and emits `PropertiesChanged`. It never
/// sets a user's `Display` (always `("", "/")`): `setDisplay` does that with the standard
/// `Properties.Set`, which the mock answers by emitting `PropertiesChanged`, like logind electing
/// a display session (`Mock.UpdateProperties` cannot wrap a struct in a variant). The template
/// answers `GetSession` with a path even for unknown ids (real logind fails), its `GetUser` is
/// broken (replaced at start), and it emits no `SessionNew`/`SessionRemoved` (`removeSession` does)
/// nor `PrepareForSleep` (`prepareForSleep` does).
public final class FakeLogind: Sendable {
    public static let managerPath = "/org/freedesktop/login1"

    public let bus: TestBus
    private let mock: BackgroundProcess
    private let connection: Connection

    private init(bus: TestBus, mock: BackgroundProcess, connection: Connection) {
        self.bus = bus
        self.mock = mock
        self.connection = connection
    }

    /// Starts the mock on `bus` (a `TestBus(.system)`) and returns once it owns
    /// `org.freedesktop.login1`.
    public static func start(on bus: TestBus, timeout: Duration = .seconds(10)) async throws -> FakeLogind {
        let exited = EventRecord<Bool>()
        let mock = try BackgroundProcess(name: "dbusmock logind", FakeBluez.python,
                                         ["-m", "dbusmock", "--system", "--template", "logind"],
                                         environment: TestBus.environment(session: nil, system: bus),
                                         onExit: { status, stderr in
                                             exited.close("dbusmock (logind) exited with status \(status): \(stderr)")
                                         })
        let connection = try Connection(address: bus.address)
        do {
            let owned = EventRecord<Bool>()
            let watch = try await connection.watchNameOwner("org.freedesktop.login1") { owner in
                if owner != nil { owned.append(true) }
            }
            defer { watch.cancel() }
            try await owned.wait(for: "org.freedesktop.login1 to get an owner", timeout: timeout) { $0.first }
        } catch {
            mock.stop()
            connection.close()
            throw TestSupportError("\(error)\ndbusmock: \(mock.standardError)")
        }
        let logind = FakeLogind(bus: bus, mock: mock, connection: connection)
        // The template's GetUser adds a str and a dbus.UInt32 and so always fails (python3-dbusmock
        // 0.28): replaced by one that answers like logind, with the mock's user path.
        _ = try await logind.call(managerPath, "org.freedesktop.DBus.Mock", "AddMethod",
                                  [.string("org.freedesktop.login1.Manager"), .string("GetUser"), .string("u"),
                                   .string("o"), .string("ret = '\(managerPath)/user/%d' % args[0]")])
        return logind
    }

    /// The mock's object path of user `uid`.
    public static func userPath(_ uid: UInt32) -> String { "\(managerPath)/user/\(uid)" }

    /// Adds an active session `id` on `seat` for user `uid` (creating seat and user as needed);
    /// returns its object path. Announces nothing.
    @discardableResult
    public func addSession(_ id: String, seat: String = "seat0", uid: UInt32, user: String = "tester") async throws -> String {
        let reply = try await call(Self.managerPath, "org.freedesktop.DBus.Mock", "AddSession",
                                   [.string(id), .string(seat), .uint32(uid), .string(user), .boolean(true)])
        guard case .string(let path)? = reply.first else { throw TestSupportError("AddSession returned \(reply)") }
        return path
    }

    /// Sets user `uid`'s `Display` to session `id` at `path` (`PropertiesChanged` follows).
    public func setDisplay(uid: UInt32, session id: String, path: String) async throws {
        let display = DBusValue.struct([.string(id), .objectPath(try ObjectPath(path))])
        _ = try await call(Self.userPath(uid), "org.freedesktop.DBus.Properties", "Set",
                           [.string("org.freedesktop.login1.User"), .string("Display"), .variant(display)])
    }

    /// What a screen locker does: `Session.SetLockedHint(locked)` (`PropertiesChanged` follows).
    public func setLocked(_ locked: Bool, session path: String) async throws {
        _ = try await call(path, "org.freedesktop.login1.Session", "SetLockedHint", [.boolean(locked)])
    }

    /// Removes session `id` at `path` and announces it with the manager's `SessionRemoved`, as
    /// logind does when a session ends (the user's `Display` is left as it was).
    public func removeSession(_ id: String, path: String) async throws {
        _ = try await call(Self.managerPath, "org.freedesktop.DBus.Mock", "RemoveObject", [.string(path)])
        _ = try await call(Self.managerPath, "org.freedesktop.DBus.Mock", "EmitSignal",
                           [.string("org.freedesktop.login1.Manager"), .string("SessionRemoved"), .string("so"),
                            .array(element: .variant, [.variant(.string(id)), .variant(.objectPath(try ObjectPath(path)))])])
    }

    /// What logind does around a suspend: the manager's `PrepareForSleep(true)` just before the
    /// system sleeps, `PrepareForSleep(false)` once it woke up (or the sleep failed).
    public func prepareForSleep(_ start: Bool) async throws {
        _ = try await call(Self.managerPath, "org.freedesktop.DBus.Mock", "EmitSignal",
                           [.string("org.freedesktop.login1.Manager"), .string("PrepareForSleep"), .string("b"),
                            .array(element: .variant, [.variant(.boolean(start))])])
    }

    /// The inhibitor locks held now (`ListInhibitors`): who, what and mode of each (the template
    /// drops one when its holder closes the file descriptor).
    public func inhibitors() async throws -> [(what: String, who: String, mode: String)] {
        let reply = try await call(Self.managerPath, "org.freedesktop.login1.Manager", "ListInhibitors", [])
        guard case .array(_, let rows)? = reply.first else { throw TestSupportError("ListInhibitors returned \(reply)") }
        return rows.compactMap { row in
            guard case .struct(let fields) = row, fields.count >= 4, case .string(let what) = fields[0],
                  case .string(let who) = fields[1], case .string(let mode) = fields[3] else { return nil }
            return (what, who, mode)
        }
    }

    /// Kills the mock (SIGKILL: logind crashing, only its name going). Idempotent.
    public func stop() {
        mock.stop()
        connection.close()
    }

    public var diagnostics: String { "dbusmock: \(mock.standardError)" }

    deinit {
        stop()
    }

    private func call(_ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue]) async throws -> [DBusValue] {
        try await connection.call(destination: "org.freedesktop.login1", path: try ObjectPath(path),
                                  interface: interface, member: member, arguments)
    }
}
