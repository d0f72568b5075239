import DBus
import Posix
import SessionCore
import Synchronization

/// A process's link to the policy daemon (`org.mprisd.AudioPolicy`): registers `RemoteSession`s,
/// receives their events (signals sent to this connection only) and survives daemon restarts.
///
/// Make one per process. It follows the daemon's owner: when it vanishes every session gets
/// `.mediaServicesLost`; when a daemon appears again each session is registered with its last
/// configuration (and activated again if it was active), then gets `.mediaServicesReset`.
///
/// Threads: no Swift concurrency. Blocking calls (`init`, `register`, the session's methods) wait
/// with a timeout and must not run on the connection's I/O thread — not inside a handler of an
/// object exported on the same connection. Event handlers run on the client's own event thread,
/// in order, and may call the session's methods.
public final class PolicyClient: Sendable {
    public let connection: Connection
    /// How long a call to the daemon may take.
    public let timeout: Duration
    let events: SerialThread

    struct State {
        /// The daemon's unique name now.
        var daemon: String?
        /// Bumped on every owner change: replies from an older daemon are stale.
        var generation: UInt64 = 0
        var records: [UInt64: RemoteRecord] = [:]
        var keys: [ObjectPath: UInt64] = [:]
        var nextKey: UInt64 = 0
        /// Signals of the current daemon for paths not known yet: a session's events can overtake
        /// the reply that names it. Replayed when the path is claimed; the oldest go beyond a few.
        var early: [(path: ObjectPath, event: SessionEvent)] = []
        var subscriptions: [SignalSubscription] = []
        var closed = false
    }

    let state = Mutex(State())
    static let earlyLimit = 32

    /// Follows the daemon on `connection` and subscribes to session signals; returns when both
    /// are in place (whether or not a daemon runs).
    public init(connection: Connection, timeout: Duration = .seconds(5)) throws(DBusError) {
        self.connection = connection
        self.timeout = timeout
        do throws(PosixError) {
            events = try SerialThread(name: "mprisd-policy-events")
        } catch {
            throw DBusError.failed("cannot follow the policy daemon: \(error)")
        }
        let sessions = MatchRule(interface: AudioPolicyNames.sessionInterface,
                                 pathNamespace: AudioPolicyNames.sessionNamespace)
        let subscribed = Latch<Result<SignalSubscription, DBusError>>()
        connection.subscribe(sessions, { [weak self] in self?.sessionSignal($0) },
                             completion: { subscribed.open(with: $0) })
        let signals = try subscribed.wait().get()
        state.withLock { $0.subscriptions.append(signals) }
        let watched = Latch<Result<SignalSubscription, DBusError>>()
        connection.watchNameOwner(AudioPolicyNames.busName, { [weak self] in self?.ownerChanged(to: $0) },
                                  completion: { watched.open(with: $0) })
        let watch = try watched.wait().get()
        state.withLock { $0.subscriptions.append(watch) }
    }

    deinit {
        close()
    }

    /// Stops following the daemon and delivering events. Sessions are not unregistered (the
    /// daemon removes them when the connection closes).
    public func close() {
        let subscriptions = state.withLock { state in
            state.closed = true
            defer { state.subscriptions = [] }
            return state.subscriptions
        }
        for subscription in subscriptions { subscription.cancel() }
        events.stop()
    }

    /// Whether a daemon owns `org.mprisd.AudioPolicy` now (to choose between it and the
    /// in-process engine). Blocks for one round trip; false when the bus does not answer.
    public static func isDaemonAvailable(_ connection: Connection, timeout: Duration = .seconds(5)) -> Bool {
        guard let reply = try? connection.callAndWait(
                .methodCall(destination: BusDaemon.name, path: BusDaemon.path, interface: BusDaemon.interface,
                            member: "NameHasOwner", body: [.string(AudioPolicyNames.busName)]),
                timeout: timeout),
              case .boolean(let owned)? = reply.body.first else { return false }
        return owned
    }

    /// The daemon's unique name, nil while none runs.
    public var daemon: String? { state.withLock { $0.daemon } }

    /// Registers a new session with the daemon.
    /// - Parameters:
    ///   - name: the display name (the program), shown by `mprisd status`.
    ///   - manageStreams: the daemon applies this session's ducking and interruptions to the
    ///     audio-server streams of the caller's process tree — for a wrapper (`mprisd run`) whose
    ///     program does not speak this API; a library client that ducks itself leaves it false.
    /// - Throws: `mediaServicesFailed` when no daemon runs or it does not answer; the daemon's
    ///   `SessionError` (`badParam` for an option that does not fit the category).
    public func register(_ configuration: SessionConfiguration = SessionConfiguration(),
                         name: String = "", manageStreams: Bool = false) throws(SessionError) -> RemoteSession {
        _ = try configuration.validated()
        let (daemon, generation) = state.withLock { ($0.daemon, $0.generation) }
        guard let daemon else { throw .mediaServicesFailed }
        let reply = try call(daemon, AudioPolicyNames.objectPath, AudioPolicyNames.interface, "Register",
                             [PolicyWire.encodeConfiguration(configuration, name: name, manageStreams: manageStreams)])
        guard case .objectPath(let path)? = reply.body.first else { throw .mediaServicesFailed }
        let claimed = state.withLock { state -> RemoteSession? in
            guard state.generation == generation, !state.closed else { return nil }
            state.nextKey += 1
            let session = RemoteSession(client: self, key: state.nextKey)
            state.records[session.key] = RemoteRecord(session: WeakSession(session), configuration: configuration,
                                                      name: name, manageStreams: manageStreams, path: path)
            claim(path, for: session.key, in: &state)
            return session
        }
        // The daemon that answered is gone already: its session went with it.
        guard let claimed else { throw .mediaServicesFailed }
        return claimed
    }

    // MARK: Plumbing

    /// Calls the daemon and waits; any failure becomes a `SessionError` (the daemon's own, or
    /// `mediaServicesFailed` when it is unreachable or the session is unknown to it).
    func call(_ daemon: String, _ path: ObjectPath, _ interface: String, _ member: String,
              _ body: [DBusValue], fallback: BadParameter = .unknownSession(SessionID(rawValue: 0)))
        throws(SessionError) -> Message {
        do {
            return try connection.callAndWait(.methodCall(destination: daemon, path: path, interface: interface,
                                                          member: member, body: body), timeout: timeout)
        } catch {
            throw PolicyWire.sessionError(error, fallback: fallback) ?? .mediaServicesFailed
        }
    }

    /// Maps `path` to record `key` and delivers the events that arrived for it before (under the
    /// lock, so they stay ahead of any later one).
    func claim(_ path: ObjectPath, for key: UInt64, in state: inout State) {
        state.keys[path] = key
        let early = state.early.filter { $0.path == path }
        state.early.removeAll { $0.path == path }
        for entry in early { deliver(entry.event, to: key, in: &state) }
    }

    /// Updates the record and queues `event` for the session's handlers (under the lock: the
    /// queue order is the decision order).
    func deliver(_ event: SessionEvent, to key: UInt64, in state: inout State) {
        guard let reference = state.records[key]?.session else { return }
        state.records[key]?.apply(event)
        events.enqueue { reference.session?.dispatch(event) }
    }
}
