import AudioDevices
import AudioPolicyClient
import DBus
import Posix
import RemoteControl
import SessionCore
import Synchronization
import SystemContext
#if canImport(Glibc)
import Glibc
#endif

/// `mprisd play` from start to exit: expands the arguments, picks the output (falling back
/// visibly to the silent one), connects to the session bus (or plays without remote control,
/// saying so), runs the engine, and stops cleanly on SIGINT/SIGTERM: `Stopped` emitted, name
/// released. Synchronous on purpose: no Swift concurrency, so no libdispatch tick.
public enum PlayerProgram {
    /// Runs the player; returns the exit status.
    public static func run(_ options: PlayOptions, log: PlayerLog = PlayerLog()) -> Int32 {
        let signals: SignalDescriptor
        do { signals = try SignalDescriptor.stopSignals() } catch {
            log.message("\(error)")
            return 1
        }
        let scan = MediaScan.expand(ArgumentBytes.recover(options.paths))
        for problem in scan.problems { log.message("skipping \(problem)") }
        guard !scan.files.isEmpty else {
            log.message("nothing to play in \(options.paths.joined(separator: " "))")
            return 1
        }
        let queue = PlayQueue(items: scan.files, loop: options.loop, shuffle: options.shuffle)
        let choice: OutputSelection.Choice
        do {
            choice = try OutputSelection.choose(device: options.device)
        } catch {
            log.message("cannot open output \(options.device ?? OutputSelection.defaultDevice): \(error)")
            return 1
        }
        if let notice = choice.notice { log.message(notice) }

        let (connection, endpoint) = remoteControl(options, log: log)
        let policy = connection.flatMap { policySession($0, options: options, log: log) }
        defer { policy?.client.close() }
        let engine: PlayerEngine
        do {
            engine = try PlayerEngine(options: options, queue: queue, sink: choice.sink, endpoint: endpoint, log: log,
                                      session: policy?.session)
        } catch {
            log.message("\(error)")
            return 1
        }
        // With a daemon, it watches the machine for everyone and its decisions arrive as session
        // events; the player only needs to know which PCM a configured output plays through.
        let routes: RouteMonitoring?
        if policy == nil {
            routes = RouteMonitoring(control: options.control, device: options.device, routing: engine.routing) {
                log.message($0)
            }
        } else {
            routes = nil
            engine.routing.rememberConfiguredPCMs(ConfiguredOutput.outputs(in: ConfigFile.load()).outputs)
        }
        defer { routes?.stop() }
        // The session bus going away takes the remote control with it (media keys, headsets,
        // the daemon): stop cleanly with a message rather than play on unreachable.
        let busLost = Mutex(false)
        let eventToken = connection?.onEvent { [weak engine] event in
            guard event == .disconnected else { return }
            busLost.withLock { $0 = true }
            log.message("the session bus went away; stopping")
            engine?.shutdown()
        }
        defer { if let eventToken { connection?.removeEventHandler(eventToken) } }
        do {
            try engine.start()
        } catch {
            log.message("\(error)")
            return 1
        }
        // A stop signal, or a wait that fails (reported), ends the playback early.
        let stopEarly: Bool
        do throws(PosixError) {
            stopEarly = try signals.wait(orReadable: engine.finishedFD) != nil
        } catch {
            log.message("\(error); stopping")
            stopEarly = true
        }
        if stopEarly {
            engine.shutdown()
            do throws(PosixError) {
                try Poll.waitUntilReadable(engine.finishedFD)
            } catch {
                log.message("\(error)")
            }
        }
        let lost = busLost.withLock { $0 }
        if let endpoint, !lost { closeAndWait(endpoint) }
        // Closing the connection ourselves ends in a `.disconnected` event too: the handler goes
        // first, so only a bus that really went away is ever reported as one.
        if let eventToken { connection?.removeEventHandler(eventToken) }
        connection?.close()
        return lost ? 1 : engine.exitStatus ?? 1
    }

    /// The policy daemon's session for this player when a daemon runs (or can be activated):
    /// registered on the MPRIS connection — so the daemon knows the MPRIS name's owner as its own
    /// client, not a foreign player — before the name is ever requested. Nil: in-process.
    private static func policySession(_ connection: Connection, options: PlayOptions,
                                      log: PlayerLog) -> (client: PolicyClient, session: any AudioSessionHandle)? {
        switch SessionBroker.daemonSession(on: connection, configuration: AppProfile.mediaPlayer().configuration,
                                           name: options.name) {
        case .success(let placement):
            guard let client = placement.client else { return nil }
            log.message("audio policy: the policy daemon decides")
            return (client, placement.session)
        case .failure(let reason):
            if let notice = reason.notice { log.message(notice) }
            return nil
        }
    }

    /// The MPRIS endpoint on the session bus, or nothing (with a notice) where there is no bus.
    private static func remoteControl(_ options: PlayOptions, log: PlayerLog) -> (Connection?, MPRISEndpoint?) {
        let connection: Connection
        do {
            connection = try Connection(bus: .session)
        } catch {
            log.message("no session bus (\(error.message)); playing without MPRIS remote control")
            return (nil, nil)
        }
        do {
            let configuration = MPRISConfiguration(name: try MPRISBusName(application: options.name),
                                                   identity: "mprisd", desktopEntry: "mprisd",
                                                   supportedURISchemes: ["file"])
            let endpoint = try MPRISEndpoint(connection: connection, configuration: configuration,
                                             commands: RemoteCommandCenter())
            return (connection, endpoint)
        } catch {
            log.message("cannot publish the MPRIS player (\(error)); playing without remote control")
            connection.close()
            return (nil, nil)
        }
    }

    /// Closing announces `Stopped` and releases the name, both only queued for sending: exit only
    /// once the bus has answered the release — the connection closed earlier would drop what is
    /// still queued, and the name would go without its `Stopped` — but after at most 2 s, so a
    /// dead bus cannot hold the exit.
    private static func closeAndWait(_ endpoint: MPRISEndpoint) {
        let closed = Latch<Void>()
        endpoint.close { closed.open() }
        _ = closed.wait(timeout: .seconds(2))
    }
}
