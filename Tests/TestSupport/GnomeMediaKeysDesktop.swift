import DBus
import Foundation

/// GNOME's media keys as a user has them, headless: an X server (`XvfbDisplay`), the real
/// gnome-settings-daemon 43 `gsd-media-keys` on it, and a stand-in for GNOME Shell's key grabber
/// (`Tests/Fixtures/GnomeShell/key_grabber.py`: the shell itself cannot run here) through which
/// gsd grabs its keys and the test presses them. Needs dconf-service running with `environment`.
public final class GnomeMediaKeysDesktop: Sendable {
    public static let gsd = "/usr/libexec/gsd-media-keys"
    public static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: gsd) && XvfbDisplay.isAvailable
    }

    static let grabber = (name: "org.gnome.Shell", path: "/org/gnome/Shell", interface: "org.mprisd.Test.KeyGrabber")
    /// GNOME Shell's action modes (`ShellActionMode`).
    public static let normalMode: UInt32 = 1
    public static let lockScreenMode: UInt32 = 4

    private let display: XvfbDisplay
    private let processes: [BackgroundProcess]
    private let connection: Connection
    /// The environment gsd runs in (and the commands it starts): `environment` and `DISPLAY`.
    public let environment: [String: String]

    private init(display: XvfbDisplay, processes: [BackgroundProcess], connection: Connection, environment: [String: String]) {
        self.display = display
        self.processes = processes
        self.connection = connection
        self.environment = environment
    }

    /// Starts the three on `bus` and returns once gsd holds the Play key; `grabber`: the path of
    /// `key_grabber.py`.
    public static func start(bus: TestBus, environment: [String: String], grabber script: String,
                             timeout: Duration = .seconds(20)) async throws -> GnomeMediaKeysDesktop {
        var started: [BackgroundProcess] = []
        let connection = try Connection(address: bus.address)
        let display: XvfbDisplay
        do {
            display = try await XvfbDisplay.start(environment: environment, timeout: timeout)
        } catch {
            connection.close()
            throw error
        }
        do {
            var environment = environment
            environment["DISPLAY"] = display.name
            started.append(try BackgroundProcess(name: "key grabber", "/usr/bin/python3", [script], environment: environment))
            started.append(try BackgroundProcess(name: "gsd-media-keys", gsd, [], environment: environment))
            let desktop = GnomeMediaKeysDesktop(display: display, processes: started, connection: connection, environment: environment)
            guard await eventually(timeout: timeout, { (try? await desktop.grabs().contains { $0.accelerator == "XF86AudioPlay" }) == true }) else {
                throw TestSupportError("gsd-media-keys never grabbed XF86AudioPlay")
            }
            return desktop
        } catch {
            let errors = started.map { "\($0.name): \($0.standardError.suffix(2000))" }.joined(separator: "\n")
            started.forEach { $0.stop() }
            display.stop()
            connection.close()
            throw TestSupportError("\(error)\n\(errors)")
        }
    }

    /// A grab the stand-in holds for gsd: the accelerator, GNOME's action modes and flags.
    public struct Grab: Sendable, Hashable {
        public var accelerator: String
        public var modes: UInt32
        public var flags: UInt32
    }

    public func grabs() async throws -> [Grab] {
        let reply = try await call("Grabs", [])
        guard case .array(_, let items)? = reply.first else { throw TestSupportError("Grabs answered \(reply)") }
        return items.compactMap { item in
            guard case .struct(let fields) = item, fields.count == 3, case .string(let accelerator) = fields[0],
                  case .uint32(let modes) = fields[1], case .uint32(let flags) = fields[2] else { return nil }
            return Grab(accelerator: accelerator, modes: modes, flags: flags)
        }
    }

    /// Presses `accelerator` once in `mode`; false when no grab takes it there.
    @discardableResult
    public func press(_ accelerator: String, mode: UInt32 = normalMode) async throws -> Bool {
        let reply = try await call("Press", [.string(accelerator), .uint32(mode)])
        guard case .boolean(let taken)? = reply.first else { throw TestSupportError("Press answered \(reply)") }
        return taken
    }

    /// Holds `accelerator` down for `repeats` auto-repeats; how many activations the shell sent.
    public func hold(_ accelerator: String, repeats: UInt32) async throws -> UInt32 {
        let reply = try await call("Hold", [.string(accelerator), .uint32(repeats)])
        guard case .uint32(let count)? = reply.first else { throw TestSupportError("Hold answered \(reply)") }
        return count
    }

    private func call(_ member: String, _ arguments: [DBusValue]) async throws -> [DBusValue] {
        try await connection.call(destination: Self.grabber.name, path: try ObjectPath(Self.grabber.path),
                                  interface: Self.grabber.interface, member: member, arguments)
    }

    public var log: String { processes.map { "\($0.name): \($0.standardError.suffix(3000))" }.joined(separator: "\n") }

    public func stop() {
        processes.reversed().forEach { $0.stop() }
        display.stop()
        connection.close()
    }

    deinit { stop() }
}
