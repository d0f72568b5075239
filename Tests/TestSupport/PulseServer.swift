import Foundation

/// A private, user-space PulseAudio whose only sink is a null sink paced in real time by the
/// server's clock: a sound card for machines without one. Clients reach it through the ALSA device
/// `pulse` (libasound2-plugins) or libpulse, with `environment` (PULSE_SERVER) set.
///
/// How it is run: `pulseaudio -n -F CONF --daemonize=no --exit-idle-time=-1 …` with HOME,
/// XDG_RUNTIME_DIR and XDG_CONFIG_HOME in a temporary directory and no D-Bus, as root too (it
/// warns, but runs). The configuration keeps the null sink at a low latency from the start: a
/// lone null sink idles at its 2 s maximum latency and renders in 2 s blocks, so a stream that
/// starts then is drained up to 2 s late; a loopback from a null source, attached while the sink
/// is suspended, pins the sink's latency to ~13 ms for the server's lifetime.
public final class PulseServer: Sendable {
    public static let executable = "/usr/bin/pulseaudio"
    /// The null sink's name (also the default sink).
    public static let sinkName = "mprisd_null"

    public let directory: URL
    /// The native-protocol socket.
    public let socketPath: String
    private let process: BackgroundProcess

    /// `unix:/…/native`: the value of PULSE_SERVER.
    public var serverAddress: String { "unix:" + socketPath }

    /// Starts the server and returns once its socket is listening.
    public init(sampleRate: Int = 48_000, timeout: Duration = .seconds(10)) async throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("mprisd-pulse-\(UUID().uuidString.prefix(8))")
        let home = directory.appendingPathComponent("home")
        let runtime = directory.appendingPathComponent("runtime")
        let fm = FileManager.default
        try fm.createDirectory(at: home, withIntermediateDirectories: true)
        try fm.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        socketPath = directory.appendingPathComponent("native").path
        let config = directory.appendingPathComponent("server.pa")
        try """
        load-module module-null-sink sink_name=\(Self.sinkName) rate=\(sampleRate)
        suspend-sink \(Self.sinkName) 1
        load-module module-null-source source_name=mprisd_silence rate=\(sampleRate)
        load-module module-loopback source=mprisd_silence sink=\(Self.sinkName) latency_msec=40 source_dont_move=true sink_dont_move=true
        suspend-sink \(Self.sinkName) 0
        set-default-sink \(Self.sinkName)
        load-module module-native-protocol-unix socket=\(socketPath) auth-anonymous=1

        """.write(to: config, atomically: true, encoding: .utf8)
        try "autospawn = no\n".write(to: directory.appendingPathComponent("client.conf"), atomically: true, encoding: .utf8)

        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent(".config").path
        environment["PULSE_RUNTIME_PATH"] = runtime.appendingPathComponent("pulse").path
        environment["PULSE_STATE_PATH"] = home.appendingPathComponent("state").path
        // No bus for the server: it must not register on the test's (or the machine's) session bus.
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/mprisd-no-session-bus"
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/mprisd-no-system-bus"
        for key in ["PULSE_SERVER", "PULSE_SINK", "PULSE_LATENCY_MSEC", "DISPLAY", "WAYLAND_DISPLAY"] {
            environment[key] = nil
        }
        do {
            process = try BackgroundProcess(name: "pulseaudio", Self.executable,
                                            ["-n", "-F", config.path, "--daemonize=no", "--exit-idle-time=-1",
                                             "--use-pid-file=no", "--system=no", "--disallow-exit",
                                             "--log-target=stderr", "--log-level=warning"],
                                            environment: environment)
        } catch {
            try? fm.removeItem(at: directory)
            throw error
        }
        // The socket is the last thing the configuration creates; no event announces it.
        let socket = socketPath
        let process = self.process
        let ready = await eventually(timeout: timeout) {
            !process.isRunning || fm.fileExists(atPath: socket)
        }
        guard process.isRunning, ready else {
            let reason = process.isRunning ? "no socket within \(timeout)" : "exited with status \(process.exitStatus ?? -1)"
            stop()
            throw TestSupportError("pulseaudio \(reason): \(process.standardError)")
        }
    }

    /// What a client needs on top of its environment: PULSE_SERVER, and a client.conf that never
    /// autospawns a server of its own.
    public var variables: [String: String] {
        ["PULSE_SERVER": serverAddress,
         "PULSE_CLIENTCONFIG": directory.appendingPathComponent("client.conf").path]
    }

    /// `base` (the test process's environment by default) with `variables` added: for a client
    /// such as `aplay -D pulse` or `mprisd play --device pulse`.
    public func environment(adding base: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        base.merging(variables) { _, new in new }
    }

    public var pid: Int32 { process.pid }
    public var isRunning: Bool { process.isRunning }
    /// The server's log (warnings and errors).
    public var log: String { process.standardError }

    /// Kills the server (SIGKILL), waits for it and removes its directory. Idempotent.
    public func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    deinit {
        stop()
    }
}
