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

    public func stop() {
        mock.stop()
        connection.close()
    }

    deinit {
        stop()
    }
}
