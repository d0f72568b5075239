import Foundation
import Synchronization
import TestSupport

/// A plain PulseAudio 16 that, unlike `PulseServer`, keeps its socket where every client looks
/// (`$XDG_RUNTIME_DIR/pulse/native`, created by the server itself) and can be killed and started
/// again in the same directories: the server a daemon must wait for and survive. It loads
/// module-stream-restore (its database under `PULSE_STATE_PATH`), as desktops do.
final class PulseAudioDaemon: Sendable {
    let directory: URL
    let runtimeDirectory: URL
    private let process = Mutex<BackgroundProcess?>(nil)

    init(start: Bool = true) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("mprisd-pa-\(UUID().uuidString.prefix(8))")
        runtimeDirectory = directory.appendingPathComponent("runtime")
        let fm = FileManager.default
        try fm.createDirectory(at: runtimeDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try fm.createDirectory(at: directory.appendingPathComponent("home"), withIntermediateDirectories: true)
        try """
        load-module module-null-sink sink_name=null-sink
        load-module module-stream-restore restore_device=false
        load-module module-native-protocol-unix auth-anonymous=1
        set-default-sink null-sink

        """.write(to: directory.appendingPathComponent("server.pa"), atomically: true, encoding: .utf8)
        try "autospawn = no\n".write(to: directory.appendingPathComponent("client.conf"), atomically: true, encoding: .utf8)
        if start { try await self.start() }
    }

    var socketPath: String { runtimeDirectory.appendingPathComponent("pulse/native").path }

    /// For pactl, paplay, parec.
    var clientEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["PULSE_SERVER"] = "unix:" + socketPath
        environment["PULSE_CLIENTCONFIG"] = directory.appendingPathComponent("client.conf").path
        environment["HOME"] = directory.appendingPathComponent("home").path
        environment["XDG_CONFIG_HOME"] = directory.appendingPathComponent("home/.config").path
        return environment
    }

    /// Starts the server and returns once it accepts connections.
    func start(timeout: Duration = .seconds(20)) async throws {
        var environment = ProcessInfo.processInfo.environment
        for key in environment.keys where key.hasPrefix("PULSE_") { environment[key] = nil }
        environment["HOME"] = directory.appendingPathComponent("home").path
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory.path
        environment["XDG_CONFIG_HOME"] = directory.appendingPathComponent("home/.config").path
        environment["PULSE_STATE_PATH"] = directory.appendingPathComponent("state").path
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/mprisd-no-session-bus"
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/mprisd-no-system-bus"
        let server = try BackgroundProcess(name: "pulseaudio", "/usr/bin/timeout",
                                           ["-s", "KILL", "600", "/usr/bin/pulseaudio", "-n",
                                            "-F", directory.appendingPathComponent("server.pa").path,
                                            "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no", "--system=no",
                                            "--disallow-exit", "--log-target=stderr", "--log-level=warning"],
                                           environment: environment)
        process.withLock { $0 = server }
        let socket = socketPath
        let ready = await eventually(timeout: timeout) {
            !server.isRunning || UnixSocket.acceptsConnections(at: socket)
        }
        guard server.isRunning, ready else {
            throw TestSupportError("pulseaudio did not start: \(server.standardError)")
        }
    }

    /// SIGKILL, as a crash: the stale socket stays.
    func kill() {
        process.withLock { $0 }?.stop()
    }

    var log: String { process.withLock { $0 }?.standardError ?? "" }

    func stop() {
        kill()
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}
