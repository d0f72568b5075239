import Foundation
import Synchronization

/// A private, user-space PulseAudio whose only sink is a null sink paced in real time by the
/// server's clock: a sound card for machines without one. Clients reach it through the ALSA device
/// `pulse` (libasound2-plugins) or libpulse, with `environment` (PULSE_SERVER) set.
///
/// How it is run: `pulseaudio -n -F CONF --daemonize=no --exit-idle-time=-1 …` with HOME,
/// XDG_RUNTIME_DIR and XDG_CONFIG_HOME in a temporary directory and no D-Bus, as root too (it
/// warns, but runs). The configuration keeps the null sink at a low latency from the start: a
/// lone null sink idles at its 2 s maximum latency and renders in 2 s blocks, so a stream that
/// starts then is drained up to 2 s late; a loopback from a null source, attached while the sink
/// is suspended, pins the sink's latency to ~13 ms for the server's lifetime. A second null source
/// stands in for a microphone (the default source).
///
/// As a desktop's server (`startServer(.pulseAudio, bus:)`): module-stream-restore loaded and the
/// socket at `$XDG_RUNTIME_DIR/pulse/native`. The server runs under `timeout` (`lifetime`), so it
/// dies even if the test process is killed; `kill()` (SIGKILL) and `terminate()` keep the
/// directories and `start()` brings it back in them; `stop()` ends it for good.
public final class PulseServer: Sendable {
    public static let executable = "/usr/bin/pulseaudio"
    /// The null sink's name (also the default sink).
    public static let sinkName = "mprisd_null"
    /// A null source standing in for a microphone (the default source).
    public static let sourceName = "mprisd_mic"

    public let directory: URL
    /// XDG_RUNTIME_DIR of the server and its clients.
    public let runtimeDirectory: URL
    /// The native-protocol socket: `directory/native`, or `$XDG_RUNTIME_DIR/pulse/native` (where
    /// every libpulse client looks by default) when started with `socketInRuntimeDirectory`.
    public let socketPath: String
    /// Whether module-stream-restore runs (volume, mute and device remembered per stream, keyed
    /// by media.role first), as on a desktop's PulseAudio; its database is kept across `start()`.
    public let restoresStreams: Bool
    /// How long the server may live at most (the `timeout` around it).
    public let lifetime: Duration
    private let arguments: [String]
    private let serverEnvironment: [String: String]
    private let state = Mutex(Run())

    private struct Run {
        var process: BackgroundProcess?
        var earlierLogs = ""
        var removed = false
    }

    /// `unix:/…/native`: the value of PULSE_SERVER.
    public var serverAddress: String { "unix:" + socketPath }

    /// Starts the server and returns once its socket is listening.
    /// - Parameters:
    ///   - restoreStreams: load module-stream-restore (see `restoresStreams`).
    ///   - socketInRuntimeDirectory: listen on `$XDG_RUNTIME_DIR/pulse/native`, the place a client
    ///     without PULSE_SERVER finds (see `socketPath`); the server creates that directory itself.
    ///   - startNow: false: only the directories and configuration; `start()` later.
    ///   - lifetime: the server is killed after this long whatever happens to the test.
    public init(sampleRate: Int = 48_000, restoreStreams: Bool = false, socketInRuntimeDirectory: Bool = false,
                startNow: Bool = true, lifetime: Duration = .seconds(600), timeout: Duration = .seconds(10)) async throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("mprisd-pulse-\(UUID().uuidString.prefix(8))")
        let home = directory.appendingPathComponent("home")
        runtimeDirectory = directory.appendingPathComponent("runtime")
        restoresStreams = restoreStreams
        self.lifetime = lifetime
        let fm = FileManager.default
        try fm.createDirectory(at: home, withIntermediateDirectories: true)
        try fm.createDirectory(at: runtimeDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // PULSE_RUNTIME_PATH is $XDG_RUNTIME_DIR/pulse: the module's default socket is `native` there.
        socketPath = socketInRuntimeDirectory
            ? runtimeDirectory.appendingPathComponent("pulse/native").path
            : directory.appendingPathComponent("native").path
        let socketArgument = socketInRuntimeDirectory ? "" : " socket=\(socketPath)"
        let restore = restoreStreams ? "load-module module-stream-restore\n" : ""
        let config = directory.appendingPathComponent("server.pa")
        try """
        \(restore)load-module module-null-sink sink_name=\(Self.sinkName) rate=\(sampleRate)
        suspend-sink \(Self.sinkName) 1
        load-module module-null-source source_name=mprisd_silence rate=\(sampleRate)
        load-module module-loopback source=mprisd_silence sink=\(Self.sinkName) latency_msec=40 source_dont_move=true sink_dont_move=true
        suspend-sink \(Self.sinkName) 0
        set-default-sink \(Self.sinkName)
        load-module module-null-source source_name=\(Self.sourceName) rate=\(sampleRate)
        set-default-source \(Self.sourceName)
        load-module module-native-protocol-unix\(socketArgument) auth-anonymous=1

        """.write(to: config, atomically: true, encoding: .utf8)
        // The daemon's default of 256 descriptors ends at ~114 loopback streams; tests want 200.
        let daemonConfig = home.appendingPathComponent(".config/pulse")
        try fm.createDirectory(at: daemonConfig, withIntermediateDirectories: true)
        try "rlimit-nofile = 4096\n".write(to: daemonConfig.appendingPathComponent("daemon.conf"), atomically: true, encoding: .utf8)
        try "autospawn = no\ncookie-file = \(home.appendingPathComponent("cookie").path)\n"
            .write(to: directory.appendingPathComponent("client.conf"), atomically: true, encoding: .utf8)

        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory.path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent(".config").path
        environment["PULSE_RUNTIME_PATH"] = runtimeDirectory.appendingPathComponent("pulse").path
        environment["PULSE_STATE_PATH"] = home.appendingPathComponent("state").path
        // No bus for the server: it must not register on the test's (or the machine's) session bus.
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/mprisd-no-session-bus"
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/mprisd-no-system-bus"
        for key in ["PULSE_SERVER", "PULSE_SINK", "PULSE_LATENCY_MSEC", "DISPLAY", "WAYLAND_DISPLAY"] {
            environment[key] = nil
        }
        serverEnvironment = environment
        arguments = ["-s", "KILL", "\(max(1, lifetime.components.seconds))", Self.executable,
                     "-n", "-F", config.path, "--daemonize=no", "--exit-idle-time=-1",
                     "--use-pid-file=no", "--system=no", "--disallow-exit",
                     "--log-target=stderr", "--log-level=warning"]
        do {
            if startNow { try await start(timeout: timeout) }
        } catch {
            stop()
            throw error
        }
    }

    /// Starts the server (again, after `kill()` or `terminate()`) with the same configuration,
    /// directories and stream-restore database; returns once it accepts connections on its socket.
    public func start(timeout: Duration = .seconds(10)) async throws {
        let process = try state.withLock { run -> BackgroundProcess in
            guard !run.removed else { throw TestSupportError("PulseServer was stopped for good") }
            guard run.process?.isRunning != true else { throw TestSupportError("PulseServer is running") }
            run.earlierLogs += run.process?.standardError ?? ""
            let process = try BackgroundProcess(name: "pulseaudio", "/usr/bin/timeout", arguments,
                                                environment: serverEnvironment)
            run.process = process
            return process
        }
        // The socket is the last thing the configuration creates; no event announces it. A
        // connection, not the file: a killed server leaves its socket file behind.
        let socket = socketPath
        let ready = await eventually(timeout: timeout) {
            !process.isRunning || UnixSocket.acceptsConnections(at: socket)
        }
        guard process.isRunning, ready else {
            let reason = process.isRunning ? "no socket within \(timeout)" : "exited with status \(process.exitStatus ?? -1)"
            process.stop()
            throw TestSupportError("pulseaudio \(reason): \(process.standardError)")
        }
    }

    /// What a client needs on top of its environment: PULSE_SERVER, and a client.conf that never
    /// autospawns a server of its own (and keeps the cookie here). XDG_RUNTIME_DIR is left alone
    /// (the player tests keep their own); `TestAudioServer.environment` adds it.
    public var variables: [String: String] {
        ["PULSE_SERVER": serverAddress,
         "PULSE_CLIENTCONFIG": directory.appendingPathComponent("client.conf").path]
    }

    /// `base` (the test process's environment by default) with `variables` added: for a client
    /// such as `aplay -D pulse` or `mprisd play --device pulse`.
    public func environment(adding base: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        base.merging(variables) { _, new in new }
    }

    /// The process id of the `timeout` wrapping the server (its process group).
    public var pid: Int32 { state.withLock { $0.process?.pid ?? -1 } }
    public var isRunning: Bool { state.withLock { $0.process?.isRunning ?? false } }
    /// The server's log (warnings and errors), of this run and earlier ones.
    public var log: String { state.withLock { $0.earlierLogs + ($0.process?.standardError ?? "") } }

    /// Kills the server (SIGKILL), as a crash would; its directories, stale socket file and
    /// stream-restore database stay for `start()`.
    public func kill() {
        state.withLock { $0.process }?.stopWholeGroup()
    }

    /// Ends the server the orderly way (SIGTERM, waited for); the directories stay for `start()`.
    public func terminate() {
        let process = state.withLock { $0.process }
        process?.terminate()
        process?.stopWholeGroup()
    }

    /// Kills the server (SIGKILL), waits for it and removes its directory for good. Idempotent.
    public func stop() {
        kill()
        let remove = state.withLock { run in
            defer { run.removed = true }
            return !run.removed
        }
        if remove { try? FileManager.default.removeItem(at: directory) }
    }

    deinit {
        stop()
    }
}
