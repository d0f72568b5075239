import AppClassification
import AudioDevices
import AudioPolicyClient
import AudioServer
import DBus
import FoundationEssentials
import MPRISDirectory
import PolicyJournal
import Posix
import SessionCore
import SystemContext
#if canImport(Glibc)
import Glibc
#endif

/// `mprisd` with no subcommand: the desktop's audio policy daemon, in the foreground.
///
/// One `AudioSystem` for every process: sessions over D-Bus (`PolicyService`), ordinary MPRIS
/// players as sessions (`ForeignPlayerTracker`), and the machine's inputs observed once for
/// everyone — jacks, mixer and Bluetooth (`RouteMonitoring`), the screen lock (`LockMonitor`),
/// silent mode and the route pick (state files, followed through inotify). The monitors only
/// tell the system; the service announces every change of the conditions from the system.
///
/// Synchronous and event-driven: the main thread sleeps in `poll()` on the stop signals and the
/// bus's disconnection; every other part has a thread of its own asleep in `poll()`. No Swift
/// concurrency and no timer, so an idle daemon wakes up zero times per second.
public enum PolicyDaemon {
    /// Runs the daemon until a stop signal or the end of the session bus; returns the exit status.
    public static func run(_ options: DaemonOptions) -> Int32 {
        let log = DaemonLog(verbose: options.verbose)
        let signals: SignalDescriptor
        do { signals = try SignalDescriptor.stopSignals() } catch {
            log.warning("\(error)")
            return ExitStatus.failure
        }
        let connection: Connection
        do {
            connection = try Connection(bus: .session)
        } catch {
            log.warning("no session bus: \(error.message)")
            return ExitStatus.failure
        }
        defer { connection.close() }
        // Signalled (and never drained) once the bus goes away: the main thread waits on it in one
        // `poll()` next to the stop signals.
        let gone: WakeEvent
        do throws(PosixError) {
            gone = try WakeEvent()
        } catch {
            log.warning("\(error)")
            return ExitStatus.failure
        }
        let eventToken = connection.onEvent { event in
            if event == .disconnected { gone.signal() }
        }
        defer { connection.removeEventHandler(eventToken) }

        // The output volume is unknown until a mixer reports one.
        let conditions = SystemConditions(isSilentMode: SilentModeSetting.read(), isOutputVolumeKnown: false)
        let system = AudioSystem(conditions: conditions)
        // Every session the daemon numbers — its clients', the players' stand-ins, the apps'
        // implicit ones — with its label and owner (issue 23).
        let sessions = SessionDirectory()
        let routing = SystemRouting(system: system) { log.info($0) }

        // MARK: Audio server (server-status) — the one link to PulseAudio / pipewire-pulse.
        // Made before the service, whose `GetStatus` reads it; started once the name is ours.
        let audioServer = AudioServerLink { log.info("audio server: \($0)") }
        // The one directory of the MPRIS players (issue 23): the policy, the arbiter and the
        // headset all read it; it starts with the first of them, after the apps file is read.
        let directory = PlayerDirectory(connection: connection) { log.info($0) }
        defer { directory.stop() }
        // The players joined with their streams, fed first by each of the link's changes: the
        // arbiter and the status read it; the stream policy shares its process trees.
        let playerStreams = PlayerStreams()
        // WirePlumber's own pause on device loss (0.5.11+), followed while the server is PipeWire.
        let wirePlumber = WirePlumberSettings { setting in
            switch setting {
            case .on: log.info("audio server: WirePlumber pauses players whose output device goes away "
                               + "(linking.pause-playback): those pauses are left to it")
            case .off, .absent: log.info("audio server: WirePlumber does not pause players whose output device goes away "
                                         + "(linking.pause-playback \(setting.rawValue)): mprisd does")
            case .unknown: break
            }
        }
        defer { wirePlumber.stop() }
        // The journal of changes to other programs, opened (a dead predecessor's entries replayed)
        // once the name is ours; until then it refuses every change, so nothing is changed that
        // could not be undone.
        let journal = DaemonJournal.unopened(log: log)
        // The stream policy (issue 14): made before the service, whose `GetStatus` reports what
        // it does to each stream; it follows the sessions and the link once they start (below).
        let streams = makeStreamPolicy(link: audioServer, connection: connection, journal: journal,
                                       wirePlumber: wirePlumber, trees: playerStreams.trees, log: log)
        let audioServerStatus: @Sendable (inout PolicyStatus) -> Void = { status in
            let report = streams?.streamReport().mapValues { (session: $0.session, action: $0.action) } ?? [:]
            AudioServerStatus.fill(&status, link: audioServer, report: report,
                                   wirePlumberPauses: wirePlumber.pausePlayback == .on)
        }
        // MARK: end of audio server (server-status)

        // The desktop's Do Not Disturb, once known (PolicyDaemon+DoNotDisturb.swift).
        let desktopSwitch = DesktopSwitch()
        let service = PolicyService(
            connection: connection, system: system, version: options.version, sessions: sessions,
            log: { log.info($0) },
            setSilentMode: { on in
                do { try SilentModeSetting.write(on) } catch { log.warning("silent mode not saved: \(error)") }
                // The desktop's switch too (issue 25); Xfce's call is sent, not waited for: this
                // runs on the connection's thread.
                if let desktop = desktopSwitch.current?.desktop, let failure = desktop.write(on, connection, wait: false) {
                    log.warning("\(desktop.rawValue)'s Do Not Disturb not switched: \(failure)")
                }
                system.setSilentMode(on)
            },
            setRouteOverride: { portID throws(SessionError) in
                if let portID, !system.conditions.availableOutputs.contains(where: { $0.id == portID }) {
                    throw .badParam(.unknownPort(portID))
                }
                do { try RoutePick.write(portID) } catch { log.warning("route pick not saved: \(error)") }
                routing.routePicked(portID)
            },
            statusExtras: { status in
                audioServerStatus(&status)
                status.journalProblem = journal.problem
                status.apps = streams?.appReport()
                if let audible = streams?.audibleSinks() {
                    for index in status.sessions.indices { status.sessions[index].audibleOn = audible[status.sessions[index].id] ?? [] }
                }
                PlayerStreamsStatus.fill(&status, from: playerStreams, players: directory.players)
            })
        do {
            try service.start()
        } catch {
            log.warning("cannot export the policy object: \(error)")
            return ExitStatus.failure
        }
        defer { service.close() }
        // The journal's lock before the name: a daemon that cannot keep the journal never owns it.
        var journalLock: JournalLock?
        var sameBus: String?
        switch takeJournalLock(connection, log: log) {
        case .refuse(let status): return status
        case .proceed(let lock): journalLock = lock
        case .sameBus(let bus): sameBus = bus
        }
        switch claimName(connection, log: log) {
        case .some(let status): return status
        case .none: break
        }
        // The only daemon now: what a dead predecessor changed in other programs is undone
        // before any player is followed.
        if let sameBus { journalLock = JournalLock(as: .init(role: .daemon, pid: getpid(), bus: sameBus)) }
        let changes = DaemonJournal(journal, connection: connection, log: log, lock: journalLock)
        defer { changes.close() }

        // One system-bus connection for everything the daemon follows there (BlueZ for routes and
        // the headset, logind's lock and sleep); closed after all of them stopped.
        let systemBus = try? Connection(bus: .system)
        if systemBus == nil { log.debug("no system bus: BlueZ, the screen lock and sleep are not followed") }
        defer { systemBus?.close() }
        let routes = RouteMonitoring(control: options.control, device: nil, routing: routing,
                                     systemBus: systemBus) { log.info($0) }
        defer { routes.stop() }

        // Silent mode's file first, so that the desktop's switch read at start reaches it; the
        // follower of the switch, made after, hears each change (KDE Plasma's inhibition).
        let silentWatch = followSilentMode(system: system, log: log) { on in desktopSwitch.current?.silentModeChanged(on) }
        defer { silentWatch?.stop() }
        let desktopArrival = followDoNotDisturb(connection, log: log, into: desktopSwitch)
        defer {
            desktopArrival?.stop()
            desktopSwitch.current?.stop()
        }
        let lock = watchLock(system: system, bus: systemBus, log: log)
        defer { lock?.stop() }
        // The audio server's sinks as ports, its default sink as the pick, the mic mute key — fed
        // by the link's changes once it starts (below). A sink going away pauses the sessions
        // whose streams played there, which the stream policy knows (`AudibleSinks`); without it,
        // the engine's one route decides.
        let serverRoutes = ServerRouteFollower(routing: routing, jacks: JackWatch.forControl(routes.jackControl),
                                               followsBluetooth: routes.followsBluetooth,
                                               lossPerStream: streams != nil) { log.info($0) }
        let players = ForeignPlayerTracker(directory: directory, system: system,
                                           isOwnSession: { service.ownsSessions($0) }, sessions: sessions,
                                           journal: journal,
                                           log: { log.info($0) })
        service.follow(players)
        // The apps file ($XDG_CONFIG_HOME/mprisd/apps, issue 15): the user's rules for apps without
        // our API and for players (spoken audio), read now — before the first look at the bus, so
        // that no player starts in the wrong mode — and again whenever it changes (`mprisd apps
        // set`, an editor). A reload that comes before the implicit sessions are enabled is not
        // lost (`StreamPolicy.setRules`).
        let appRules = AppRulesWatch(warn: { log.warning($0) }) { rules in
            log.info("apps file reloaded: \(rules.rules.count) rules")
            players.setRules(rules)
            streams?.setRules(rules)
        }
        defer { appRules.stop() }
        players.setRules(appRules.rules)
        players.start { result in
            if case .failure(let error) = result { log.warning("foreign players not followed: \(error)") }
        }
        defer { players.stop() }

        // MARK: arbiter (issue 16) — the one choice of the player the media keys and the headset act on.
        let arbiter = PlayerArbitration.start(
            directory: directory, service: service, sessions: sessions, system: system, ignore: options.ignorePlayers,
            audioServer: audioServer, streams: playerStreams, log: log)
        defer { arbiter.stop() }
        // MARK: end of arbiter

        // MARK: Audio-server streams (issue 14) — the policy acting on the streams of sessions
        // registered with `manageStreams`, fed by the one link made above.
        if let streams {
            // Jacks and BlueZ devices going away spare the sessions whose streams say where they
            // play (a jack pauses those on its card's sinks); the route decides for the rest.
            routing.decideLoss(by: .of(streams, jackControl: routes.jackControl, system: system, sessions: sessions))
            service.follow(streams: streams)
            players.follow(streams: streams, join: playerStreams)  // each player's one duck channel
            // Apps without our API become implicit sessions (issue 15).
            streams.enableImplicitSessions(ImplicitSessionSetup(
                system: system, sessions: sessions, rules: appRules.rules,
                resumeAfterCalls: options.resumeAfterCalls))
        }
        startAudioServer(audioServer, log: log) { change in
            follow(wirePlumber, change, log: log)
            let lost = serverRoutes.follow(change)
            playerStreams.inventoryChanged(change)  // first: the stream policy and the arbiter read it
            streams?.inventoryChanged(change, lost: lost)
            arbiter.inventoryChanged(change)  // players whose streams are gone leave their context
        }
        // The streams' changes are undone while the link is still up; then the link goes.
        defer {
            streams?.stop()
            audioServer.stop()
        }
        // MARK: end of audio-server streams

        // MARK: sleep (issue 16) — logind's PrepareForSleep pauses every playing session.
        let sleep = watchSleep(system: system, systemBus: systemBus, session: connection, enabled: options.pauseBeforeSleep,
                               spared: { streams?.implicitSessionIDs() ?? [] }, log: log)
        defer { sleep?.stop() }
        // MARK: end of sleep

        log.info("mprisd \(options.version): serving \(AudioPolicyNames.busName) as \(connection.uniqueName)")

        // MARK: the headset (issue 16)
        // The arbiter's active player, registered with BlueZ on every adapter.
        let headset = HeadsetWatch.start(directory: directory, system: systemBus, log: log,
                                         activePlayer: arbiter.onActiveChange)
        defer { headset?.stop() }
        // MARK: end of the headset

        // Why the daemon stops cleanly; nil when the bus went away. A wait that fails stops it too.
        let stopping: String?
        do throws(PosixError) {
            stopping = try signals.wait(orReadable: gone.fileDescriptor).map { "signal \($0)" }
        } catch {
            stopping = "cannot wait for signals: \(error)"
        }
        if let stopping {
            log.info("stopping (\(stopping))")
            // A clean stop undoes everything the daemon did to other programs, and waits until
            // the bus has taken those calls (a reply to a later call comes after them).
            players.stop()
            streams?.stop()  // audio-server streams: every duck and mute undone, while the link is up
            system.waitForDelivery()  // the sessions' signals about it are sent before the barrier
            changes.undoAll()
            barrier(connection)
        } else {
            log.warning("the session bus went away; stopping")
            return ExitStatus.failure
        }
        return ExitStatus.success  // closing the connection releases the name
    }

    /// WirePlumber's settings are followed while the link is connected to a PipeWire server
    /// (PulseAudio has none; a restarted server gets a new watch).
    private static func follow(_ wirePlumber: WirePlumberSettings, _ change: InventoryChange, log: DaemonLog) {
        switch change.kind {
        case .connected:
            guard let server = change.current.server, server.name.contains("PipeWire") else { return wirePlumber.stop() }
            if let reason = wirePlumber.start() { log.debug("WirePlumber's settings are not followed: \(reason)") }
        case .disconnected:
            wirePlumber.stop()
        case .updated:
            break
        }
    }

    /// The stream policy for `link`; nil (with a warning) when its thread cannot start.
    private static func makeStreamPolicy(link: AudioServerLink, connection: Connection, journal: ChangeJournal,
                                         wirePlumber: WirePlumberSettings, trees: StreamProcessTrees,
                                         log: DaemonLog) -> StreamPolicy? {
        do throws(PosixError) {
            return try StreamPolicy(link: link, connection: connection, journal: journal, log: { log.info($0) },
                                    trees: trees, wirePlumber: wirePlumber)
        } catch {
            log.warning("audio-server streams are not managed: \(error)")
            return nil
        }
    }

    /// Starts the audio server link, whose changes go to `follow`. The link logs by itself, once
    /// each, that there is no server, that it connected (`audio server: connected to the audio
    /// server: NAME VERSION`) and that the server went away — never per event or per retry. A link
    /// that cannot start leaves the daemon running without a server, and `mprisd status` says so.
    private static func startAudioServer(_ link: AudioServerLink, log: DaemonLog,
                                         follow: @escaping @Sendable (InventoryChange) -> Void) {
        do throws(PosixError) {
            try link.start(onChange: follow)
        } catch {
            log.warning("audio server: not followed: \(error)")
        }
    }

    /// Requests `org.mprisd.AudioPolicy`; nil when it is ours, else the exit status.
    private static func claimName(_ connection: Connection, log: DaemonLog) -> Int32? {
        do {
            switch try connection.requestNameAndWait(AudioPolicyNames.busName, flags: [.doNotQueue]) {
            case .primaryOwner, .alreadyOwner:
                return nil
            default:
                let owner = nameOwner(connection, AudioPolicyNames.busName)
                log.warning("another policy daemon already owns \(AudioPolicyNames.busName)"
                            + (owner.map { " (\($0))" } ?? "") + "; exiting")
                return ExitStatus.unavailable
            }
        } catch {
            log.warning("cannot own \(AudioPolicyNames.busName): \(error)")
            return ExitStatus.failure
        }
    }

    /// Returns once the bus has read every message sent before (its answer to `GetId` comes after
    /// them), so that closing the connection loses none of them.
    private static func barrier(_ connection: Connection) {
        let call = Message.methodCall(destination: BusDaemon.name, path: BusDaemon.path,
                                      interface: BusDaemon.interface, member: "GetId")
        _ = try? connection.callAndWait(call, timeout: .seconds(2))
    }

    /// The unique name owning `name` (for messages), nil if unknown.
    private static func nameOwner(_ connection: Connection, _ name: String) -> String? {
        let call = Message.methodCall(destination: BusDaemon.name, path: BusDaemon.path,
                                      interface: BusDaemon.interface, member: "GetNameOwner",
                                      body: [.string(name)])
        guard let reply = try? connection.callAndWait(call, timeout: .seconds(2)),
              case .string(let owner)? = reply.body.first else { return nil }
        return owner
    }

    /// Silent mode from its state file, followed while running (`mprisd silent on|off`).
    /// `changed`: after each write of the file (KDE Plasma's inhibition follows it).
    private static func followSilentMode(system: AudioSystem, log: DaemonLog,
                                         changed: @escaping @Sendable (Bool) -> Void) -> StateFileWatcher? {
        do {
            return try StateFileWatcher(SilentModeSetting.file) { text in
                let on = SilentModeSetting.parse(text) ?? false
                // Told every time (SetSilentMode has switched the system already; the follower
                // does nothing twice).
                defer { changed(on) }
                guard on != system.conditions.isSilentMode else { return }
                log.info("silent mode \(on ? "on" : "off")")
                system.setSilentMode(on)
            }
        } catch {
            log.warning("silent mode is not followed while running: \(error)")
            return nil
        }
    }

    /// The screen lock from logind on the system bus; quiet when there is no system bus or logind.
    private static func watchLock(system: AudioSystem, bus: Connection?, log: DaemonLog) -> LockMonitor? {
        guard let bus else { return nil }
        let monitor = LockMonitor(connection: bus) { locked in
            guard locked != system.conditions.isLocked else { return }
            log.info(locked ? "screen locked" : "screen unlocked")
            system.setLocked(locked)
        }
        monitor.start { result in
            if case .failure(let error) = result { log.debug("screen lock not followed: \(error)") }
        }
        return monitor
    }
}
