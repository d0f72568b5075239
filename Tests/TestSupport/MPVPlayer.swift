import DBus
import Foundation

/// A real mpv (`--ao=null --vo=null`, so it plays in real time without a sound card) with Debian's
/// mpv-mpris script, on a test bus: the foreign MPRIS player the policy daemon has to handle.
///
/// The test plays the user: it reads and drives the player through its MPRIS interface on a
/// connection of its own. mpv is killed (SIGKILL, with its process group) when the object goes.
public final class MPVPlayer: Sendable {
    public static let executable = "/usr/bin/mpv"
    /// Where Debian's `mpv-mpris` package puts the script.
    public static let script = "/usr/lib/mpv-mpris/mpris.so"

    public let process: BackgroundProcess
    /// The test's own connection to the bus, for playing the user.
    public let control: Connection
    /// mpv's unique name on the bus.
    public let uniqueName: String
    /// The MPRIS name it took (`org.mpris.MediaPlayer2.mpv`, or `….instance…` for a second one).
    public let busName: String

    private init(process: BackgroundProcess, control: Connection, uniqueName: String, busName: String) {
        self.process = process
        self.control = control
        self.uniqueName = uniqueName
        self.busName = busName
    }

    deinit {
        process.stop()
        control.close()
    }

    /// Whether mpv and mpv-mpris are installed (tests skip otherwise).
    public static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: executable) && FileManager.default.fileExists(atPath: script)
    }

    /// Starts mpv on `bus` playing `file` in a loop (or paused on it), and returns once its MPRIS
    /// name is on the bus. `output` replaces `--ao=null` (`["--ao=pulse", "--audio-device=pulse/SINK"]`
    /// to play through an audio server named in `environment`). The deadline is generous: under
    /// the ThreadSanitizer pass on two loaded cores an mpv took more than 10 s to publish its name.
    public static func start(bus: TestBus, file: String, paused: Bool = false, output: [String] = ["--ao=null"],
                             environment: [String: String] = [:], timeout: Duration = .seconds(30)) async throws -> MPVPlayer {
        var arguments = ["--no-config", "--idle=yes"] + output + ["--vo=null", "--no-terminal",
                         "--script=\(script)", "--loop-file=inf"]
        if paused { arguments.append("--pause") }
        arguments.append(file)
        let process = try BackgroundProcess(name: "mpv", executable, arguments,
                                            environment: TestBus.environment(session: bus, system: nil)
                                                .merging(environment) { _, new in new })
        do {
            let control = try Connection(address: bus.address)
            let pid = process.pid
            let deadline = ContinuousClock.now + timeout
            while process.isRunning, ContinuousClock.now < deadline {
                for unique in try await bus.connections(ofProcess: pid) {
                    if let name = try await mprisName(ownedBy: unique, on: control) {
                        return MPVPlayer(process: process, control: control, uniqueName: unique, busName: name)
                    }
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            control.close()
            throw TestSupportError("mpv took no MPRIS name within \(timeout) (status \(process.exitStatus.map(String.init) ?? "running")): \(process.standardError)")
        } catch {
            process.stop()
            throw error
        }
    }

    private static func mprisName(ownedBy unique: String, on connection: Connection) async throws -> String? {
        let names = try await connection.call(destination: "org.freedesktop.DBus", path: ObjectPath("/org/freedesktop/DBus"),
                                              interface: "org.freedesktop.DBus", member: "ListNames")
        guard case .array(_, let values)? = names.first else { return nil }
        for case .string(let name) in values where name.hasPrefix("org.mpris.MediaPlayer2.") {
            let owner = try? await connection.call(destination: "org.freedesktop.DBus",
                                                   path: ObjectPath("/org/freedesktop/DBus"),
                                                   interface: "org.freedesktop.DBus", member: "GetNameOwner",
                                                   [.string(name)])
            if case .string(unique)? = owner?.first { return name }
        }
        return nil
    }

    public var pid: Int32 { process.pid }
    public var isRunning: Bool { process.isRunning }

    /// Kills mpv (SIGKILL) and waits until it is reaped.
    public func kill() { process.stop() }

    // MARK: Playing the user (MPRIS)

    public func play() async throws { try await call("Play") }
    public func pause() async throws { try await call("Pause") }

    /// `OpenUri`: mpv replaces what it plays with `uri` (a new track, new `Metadata`).
    public func openURI(_ uri: String) async throws {
        _ = try await control.call(destination: uniqueName, path: Self.path, interface: Self.interface,
                                   member: "OpenUri", [.string(uri)], timeout: .seconds(5))
    }

    public func setVolume(_ volume: Double) async throws {
        _ = try await control.call(destination: uniqueName, path: Self.path, interface: "org.freedesktop.DBus.Properties",
                                   member: "Set", [.string(Self.interface), .string("Volume"), .variant(.double(volume))],
                                   timeout: .seconds(5))
    }

    /// `PlaybackStatus`: Playing, Paused or Stopped.
    public func playbackStatus() async throws -> String {
        guard case .string(let status) = try await property("PlaybackStatus") else {
            throw TestSupportError("PlaybackStatus of \(busName) is not a string")
        }
        return status
    }

    public func volume() async throws -> Double {
        guard case .double(let volume) = try await property("Volume") else {
            throw TestSupportError("Volume of \(busName) is not a double")
        }
        return volume
    }

    /// Waits until `PlaybackStatus` is `status`; false after `timeout`.
    public func waitForStatus(_ status: String, timeout: Duration = .seconds(5)) async -> Bool {
        await eventually(timeout: timeout) { (try? await playbackStatus()) == status }
    }

    private static let interface = "org.mpris.MediaPlayer2.Player"
    private static let path: ObjectPath = {
        (try? ObjectPath("/org/mpris/MediaPlayer2")) ?? .root
    }()

    private func call(_ member: String) async throws {
        _ = try await control.call(destination: uniqueName, path: Self.path, interface: Self.interface, member: member,
                                   timeout: .seconds(5))
    }

    /// A property of its `org.mpris.MediaPlayer2.Player`, unwrapped from its variant.
    public func property(_ name: String) async throws -> DBusValue {
        let reply = try await control.call(destination: uniqueName, path: Self.path,
                                           interface: "org.freedesktop.DBus.Properties", member: "Get",
                                           [.string(Self.interface), .string(name)], timeout: .seconds(5))
        guard case .variant(let value)? = reply.first else {
            throw TestSupportError("Get \(name) of \(busName) answered \(reply)")
        }
        return value
    }
}
