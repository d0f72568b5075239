import Foundation
import Synchronization

/// A private, headless PipeWire + WirePlumber + pipewire-pulse whose only sink is a null sink
/// paced in real time (and whose only source a null source, for a microphone): the desktop's audio
/// server as today's distributions ship it, started per test.
///
/// Run exactly as audio-server-notes.md describes: HOME, XDG_RUNTIME_DIR, XDG_CONFIG_HOME and
/// XDG_STATE_HOME in a temporary directory of its own (so WirePlumber's restore-stream database
/// starts empty for every server, and one test's volumes never leak into the next); the null sink
/// and source from Tests/Fixtures/PipeWire; the test's private session bus, without which WirePlumber
/// exits (rc 70) and streams are never linked. Two start-up races are avoided by order: WirePlumber
/// starts only once pipewire listens, and no libpulse client (not even `pactl`) runs before
/// pipewire-pulse listens on its own socket (a client creating `$XDG_RUNTIME_DIR/pulse` first
/// makes pipewire-pulse fail). Ready means `pactl info` answers and WirePlumber made the null
/// sink and source the defaults (without WirePlumber pactl reports no default sink at all).
///
/// Every process runs under `timeout` (`lifetime`) in a process group of its own, so none outlives
/// a test that crashed; `stop()` and deinit kill them all. `kill()` and `terminate()` end the
/// server but keep the directories, and `start()` brings it back in them (the restart a daemon
/// must survive).
public final class PipeWireServer: Sendable {
    /// The null sink's node name (also the default sink).
    public static let sinkName = "null-sink"
    /// A null source standing in for a microphone (the default source).
    public static let sourceName = "null-source"

    /// How many libpulse clients pipewire-pulse accepts (its default is 64; PulseAudio's limit,
    /// 64, is built in).
    public static let maxClients = 512

    /// The server's scratch directory; everything else is under it.
    public let directory: URL
    /// XDG_RUNTIME_DIR (and PIPEWIRE_RUNTIME_DIR): `pipewire-0` and `pulse/native` live here.
    public let runtimeDirectory: URL
    /// XDG_STATE_HOME: WirePlumber keeps its restore-stream database under `wireplumber/`.
    public let stateDirectory: URL
    /// The session bus WirePlumber uses.
    public let busAddress: String
    /// How long any of the three processes may live at most (the `timeout` around each).
    public let lifetime: Duration
    /// Another system's root to run the three from (`DebianChroot`: a newer PipeWire and
    /// WirePlumber than this one's); nil: this system's.
    public let root: String?
    /// WirePlumber 0.5 settings for a `wireplumber.conf.d` fragment (`linking.pause-playback` →
    /// `false`); WirePlumber 0.4 reads no such file.
    public let wirePlumberSettings: [String: String]
    /// Whole `wireplumber.conf.d` fragments (WirePlumber 0.5), by file name: components, profiles
    /// (`WirePlumberFragments.roleLoopbacks`).
    public let wirePlumberFragments: [String: String]

    private let state = Mutex(Processes())

    private struct Processes {
        var pipewire: BackgroundProcess?
        var wireplumber: BackgroundProcess?
        var pulse: BackgroundProcess?
        var earlierLogs = ""
        var removed = false
        var lastStart: Duration?

        var all: [BackgroundProcess] { [pulse, wireplumber, pipewire].compactMap { $0 } }
    }

    /// Creates the directories and starts the server; returns once it is ready.
    /// - Parameters:
    ///   - busAddress: the test's private session bus (a `TestBus`'s address).
    ///   - startNow: false: only the directories (an empty runtime directory: the desktop before
    ///     its server came up); `start()` later.
    ///   - timeout: how long the start may take before it counts as failed.
    ///   - root: another system's root to run the servers from (see `root`).
    ///   - wirePlumberSettings: see `wirePlumberSettings`.
    ///   - wirePlumberFragments: see `wirePlumberFragments`.
    public init(busAddress: String, startNow: Bool = true, lifetime: Duration = .seconds(600),
                timeout: Duration = .seconds(20), root: String? = nil,
                wirePlumberSettings: [String: String] = [:], wirePlumberFragments: [String: String] = [:]) async throws {
        self.root = root
        self.wirePlumberSettings = wirePlumberSettings
        self.wirePlumberFragments = wirePlumberFragments
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("mprisd-pipewire-\(UUID().uuidString.prefix(8))")
        runtimeDirectory = directory.appendingPathComponent("runtime")
        stateDirectory = directory.appendingPathComponent("state")
        self.busAddress = busAddress
        self.lifetime = lifetime
        do {
            try writeFiles()
            if startNow { try await start(timeout: timeout) }
        } catch {
            stop()
            throw error
        }
    }

    /// `$XDG_RUNTIME_DIR/pipewire-0`: PipeWire's native socket.
    public var pipeWireSocket: String { runtimeDirectory.appendingPathComponent("pipewire-0").path }
    /// `$XDG_RUNTIME_DIR/pulse/native`: pipewire-pulse's socket, where every libpulse client looks.
    public var pulseSocket: String { runtimeDirectory.appendingPathComponent("pulse/native").path }
    /// `unix:…/pulse/native`: the value of PULSE_SERVER.
    public var serverAddress: String { "unix:" + pulseSocket }

    /// What a client needs on top of its environment: PULSE_SERVER, XDG_RUNTIME_DIR and
    /// PIPEWIRE_RUNTIME_DIR (for native clients such as `pw-play`), and a client.conf that never
    /// autospawns and keeps the cookie here.
    public var variables: [String: String] {
        ["PULSE_SERVER": serverAddress,
         "PULSE_CLIENTCONFIG": clientConfig.path,
         "XDG_RUNTIME_DIR": runtimeDirectory.path,
         "PIPEWIRE_RUNTIME_DIR": runtimeDirectory.path]
    }

    /// `base` (the test process's environment by default) with `variables` added.
    public func environment(adding base: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        base.merging(variables) { _, new in new }
    }

    /// Whether all three processes run.
    public var isRunning: Bool {
        state.withLock { processes in
            processes.pipewire != nil && processes.all.count == 3 && processes.all.allSatisfy(\.isRunning)
        }
    }

    /// What the three wrote on standard error, this run and earlier ones.
    public var log: String {
        state.withLock { processes in
            processes.earlierLogs + Self.logs(of: processes)
        }
    }

    /// How long the last start took until the server was ready.
    public var lastStartDuration: Duration? { state.withLock { $0.lastStart } }

    private static func logs(of processes: Processes) -> String {
        [("pipewire", processes.pipewire), ("wireplumber", processes.wireplumber), ("pipewire-pulse", processes.pulse)]
            .compactMap { name, process in process.map { "[\(name), status \($0.exitStatus.map(String.init) ?? "running")]\n\($0.standardError)" } }
            .joined(separator: "\n")
    }

    /// Starts the three processes in the server's directories (again, after `kill()` or
    /// `terminate()`) and returns once the server is ready; throws with the logs if it is not
    /// within `timeout`.
    public func start(timeout: Duration = .seconds(20)) async throws {
        let began = ContinuousClock.now
        let deadline = began + timeout
        let environment = serverEnvironment
        try state.withLock { processes in
            guard !processes.removed else { throw TestSupportError("PipeWireServer was stopped for good") }
            guard processes.all.allSatisfy({ !$0.isRunning }) else { throw TestSupportError("PipeWireServer is running") }
            processes.earlierLogs += Self.logs(of: processes)
            processes.pipewire = nil
            processes.wireplumber = nil
            processes.pulse = nil
        }
        let pipewire = try launch("pipewire", environment)
        state.withLock { $0.pipewire = pipewire }
        try await wait(until: deadline, "pipewire listens on \(pipeWireSocket)") { [pipeWireSocket] in
            UnixSocket.acceptsConnections(at: pipeWireSocket)
        }
        let wireplumber = try launch("wireplumber", environment)
        state.withLock { $0.wireplumber = wireplumber }
        let pulse = try launch("pipewire-pulse", environment)
        state.withLock { $0.pulse = pulse }
        try await wait(until: deadline, "pipewire-pulse listens on \(pulseSocket)") { [pulseSocket] in
            UnixSocket.acceptsConnections(at: pulseSocket)
        }
        // Only now may a libpulse client connect.
        let clientEnvironment = self.environment(adding: environment)
        try await wait(until: deadline, "pactl info answers") {
            (try? await Pactl.run(["info"], environment: clientEnvironment, timeout: .seconds(5))) != nil
        }
        // WirePlumber 0.5 (a `root`'s) makes no virtual source the default: only the sink is waited for.
        let defaults = root == nil ? [("sink", Self.sinkName), ("source", Self.sourceName)] : [("sink", Self.sinkName)]
        for (kind, name) in defaults {
            try await wait(until: deadline, "WirePlumber makes \(name) the default \(kind)") {
                let chosen = try? await Pactl.run(["get-default-\(kind)"], environment: clientEnvironment, timeout: .seconds(5))
                return chosen?.trimmingCharacters(in: .whitespacesAndNewlines) == name
            }
        }
        let took = ContinuousClock.now - began
        state.withLock { $0.lastStart = took }
    }

    private func launch(_ program: String, _ environment: [String: String]) throws -> BackgroundProcess {
        let seconds = max(1, Int(lifetime.components.seconds))
        guard let root else {
            return try BackgroundProcess(name: program, "/usr/bin/timeout", ["-s", "KILL", "\(seconds)", "/usr/bin/\(program)"],
                                         environment: environment)
        }
        // In a mount namespace of its own (gone with the process): the temporary directory (the
        // server's files, the test bus's socket), /proc and /dev of this system, then the root's
        // program — pids are shared, so WirePlumber's pid matching sees this system's players.
        let temporary = FileManager.default.temporaryDirectory.standardizedFileURL.path
        let script = """
            set -e
            mkdir -p "$1$2"
            mount --bind "$2" "$1$2"
            mount -t proc proc "$1/proc"
            mount --rbind /dev "$1/dev"
            exec chroot "$1" "/usr/bin/$3"
            """
        return try BackgroundProcess(name: program, "/usr/bin/timeout",
                                     ["-s", "KILL", "\(seconds)", "/usr/bin/unshare", "--mount", "--propagation", "private",
                                      "/bin/sh", "-c", script, "sh", root, temporary, program],
                                     environment: environment)
    }

    /// Polls `condition` (no event announces these) until it holds; fails at once, with the logs,
    /// when one of the started processes exited.
    private func wait(until deadline: ContinuousClock.Instant, _ what: String,
                      _ condition: @escaping @Sendable () async -> Bool) async throws {
        while true {
            let dead = state.withLock { $0.all.first { !$0.isRunning } }
            if let dead {
                throw TestSupportError("PipeWireServer: \(dead.name) exited (status \(dead.exitStatus ?? -1)) "
                                       + "before \(what):\n\(log)")
            }
            if await condition() { return }
            guard ContinuousClock.now < deadline else {
                throw TestSupportError("PipeWireServer: not ready in time: \(what) did not happen:\n\(log)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Kills all three at once (SIGKILL), as a crash would; the directories stay (with the stale
    /// sockets a crash leaves) for `start()`.
    public func kill() {
        // Each process group (timeout and its program) first, so none sees another go.
        for process in state.withLock({ $0.all }) where process.isRunning {
            Glibc.kill(-process.pid, SIGKILL)
        }
        for process in state.withLock({ $0.all }) { process.stopWholeGroup() }
    }

    /// Ends the server the orderly way (SIGTERM to pipewire-pulse, WirePlumber, then pipewire,
    /// each waited for); the directories stay for `start()`.
    public func terminate() {
        for process in state.withLock({ $0.all }) {
            process.terminate()
            process.stopWholeGroup()
        }
    }

    /// Ends the processes (SIGKILL) and removes the directories for good. Idempotent.
    public func stop() {
        kill()
        let remove = state.withLock { processes in
            defer { processes.removed = true }
            return !processes.removed
        }
        if remove { try? FileManager.default.removeItem(at: directory) }
    }

    deinit {
        stop()
    }
}
