import DBus
import Glibc
import Synchronization

/// Follows whether the user's screen is locked: the `LockedHint` of the user's graphical session
/// in systemd-logind, on the system bus (issue 6, "lock").
///
/// How it works, all of it on the connection's I/O thread and without Swift concurrency, timers or
/// polling (the daemon must wake zero times while nothing happens):
/// - It follows the owner of `org.freedesktop.login1`. While nobody owns it the screen counts as
///   unlocked and nothing is logged: no logind (containers, minimal systems) or logind restarting
///   is normal, not an error.
/// - When an owner appears, `LogindSessionLookup` finds the session (the user's `Display`, then
///   `XDG_SESSION_ID`, then any session of the user) and reads its `LockedHint`.
/// - From then on it follows `PropertiesChanged` of sessions (`LockedHint`) and of users
///   (`Display`: the user's graphical session changed), and the manager's `SessionNew` /
///   `SessionRemoved` (the session went, or a better one than a fallback may have come). Those
///   look the session up again. The matches are on the bus before the name is looked at, so
///   nothing falls between the lookup and the signals; a change that arrives while a lookup is on
///   its way makes it run once more when it returns.
/// - When the owner goes or the bus connection is lost, the screen counts as unlocked.
///
/// `onChange` gets every change of `isLocked`, on the connection's I/O thread, in order; it must
/// return quickly and may read `isLocked`. The monitor never calls it while holding its own lock.
public final class LockMonitor: Sendable {
    public typealias Handler = @Sendable (Bool) -> Void
    public typealias Completion = @Sendable (Result<Void, DBusError>) -> Void

    private let connection: Connection
    private let onChange: Handler
    private let uid: UInt32
    private let sessionID: String?
    private let state = Mutex(State())

    private struct State {
        enum Phase { case created, starting, running, stopped }

        var phase = Phase.created
        var subscriptions: [SignalSubscription] = []
        var eventToken: UInt64?
        /// The unique name of the current logind, if any.
        var owner: String?
        /// Bumped on every owner change and on `stop`: a lookup from an older generation asked a
        /// logind that is gone, and is dropped.
        var generation: UInt64 = 0
        /// A lookup is on its way.
        var looking = false
        /// Something changed while a lookup was on its way: look again when it returns.
        var lookAgain = false
        var user: ObjectPath?
        var session: LogindSession?
        var locked = false
        /// `start`'s completion, held until the first lookup (if logind runs) is in.
        var pendingStart: Completion?

        var isLive: Bool { phase == .starting || phase == .running }

        func accepts(_ signal: Message) -> Bool {
            guard let owner else { return false }
            return signal.sender == owner
        }
    }

    /// A monitor on `connection`, which must be a connection to the system bus (where logind
    /// lives), for the user running this process. Nothing happens until `start`.
    public convenience init(connection: Connection, onChange: @escaping Handler) {
        let sessionID = getenv("XDG_SESSION_ID").map { String(cString: $0) }
        self.init(connection: connection, uid: getuid(), sessionID: sessionID, onChange: onChange)
    }

    /// A monitor for user `uid`, with `sessionID` standing in for `XDG_SESSION_ID` (tests, and a
    /// daemon started with a different environment).
    public init(connection: Connection, uid: UInt32, sessionID: String?, onChange: @escaping Handler) {
        self.connection = connection
        self.uid = uid
        self.sessionID = sessionID
        self.onChange = onChange
    }

    deinit {
        stop()
    }

    /// Whether the user's session is locked now (false while logind or the session is unknown).
    public var isLocked: Bool {
        state.withLock { $0.locked }
    }

    /// The session followed now, if any (for `mprisd status` and diagnostics).
    public var sessionPath: ObjectPath? {
        state.withLock { $0.session?.path }
    }

    /// Whether logind currently owns `org.freedesktop.login1`.
    public var isLogindRunning: Bool {
        state.withLock { $0.owner != nil }
    }

    /// Subscribes to logind's signals and starts following `org.freedesktop.login1`. `completion`
    /// runs (on the I/O thread, or at once on the caller's thread if the connection is closed) when
    /// the monitor is in place and, if logind runs, the session has been looked up: a screen
    /// locked at start has been reported and `isLocked` tells. It fails only when the bus itself
    /// refuses (a match rule rejected, the connection gone) or `stop` came first, never because
    /// logind is absent or does not answer.
    ///
    /// A monitor starts once; a stopped one stays stopped.
    public func start(completion: @escaping Completion) {
        let allowed = state.withLock { state -> Bool in
            guard state.phase == .created else { return false }
            state.phase = .starting
            return true
        }
        guard allowed else { return completion(.failure(.failed("the lock monitor was already started"))) }
        let token = connection.onEvent { [weak self] event in
            if event == .disconnected { self?.ownerChanged(to: nil) }
        }
        state.withLock { $0.eventToken = token }

        let rules: [(MatchRule, @Sendable (LockMonitor, Message) -> Void)] = [
            (MatchRule(sender: LogindNames.busName, interface: LogindNames.propertiesInterface,
                       member: "PropertiesChanged", pathNamespace: LogindNames.sessionNamespace,
                       arguments: [0: LogindNames.sessionInterface]), { $0.sessionPropertiesChanged($1) }),
            (MatchRule(sender: LogindNames.busName, interface: LogindNames.propertiesInterface,
                       member: "PropertiesChanged", pathNamespace: LogindNames.userNamespace,
                       arguments: [0: LogindNames.userInterface]), { $0.userPropertiesChanged($1) }),
            (MatchRule(sender: LogindNames.busName, interface: LogindNames.managerInterface,
                       path: LogindNames.managerPath), { $0.managerSignal($1) }),
        ]
        // A failure part-way undoes what was set up, so a failed monitor holds nothing on the bus.
        let fail: @Sendable (DBusError) -> Void = { [weak self] error in
            self?.stop()
            completion(.failure(error))
        }
        subscribe(rules[...], failure: fail) { [weak self] in
            guard let self else { return fail(Self.stoppedError) }
            self.watchOwner(completion: completion, failure: fail)
        }
    }

    /// Stops following logind: cancels the subscriptions and forgets the session, without
    /// reporting a change (the screen did not unlock; the monitor stopped looking).
    public func stop() {
        let (subscriptions, token, pendingStart) = state.withLock { state in
            state.phase = .stopped
            state.generation &+= 1
            state.owner = nil
            state.looking = false
            state.lookAgain = false
            state.user = nil
            state.session = nil
            state.locked = false
            defer {
                state.subscriptions.removeAll()
                state.eventToken = nil
                state.pendingStart = nil
            }
            return (state.subscriptions, state.eventToken, state.pendingStart)
        }
        for subscription in subscriptions { subscription.cancel() }
        if let token { connection.removeEventHandler(token) }
        pendingStart?(.failure(Self.stoppedError))
    }

    private static let stoppedError = DBusError.failed("the lock monitor was stopped while starting")

    // MARK: Setting up

    /// Subscribes to each rule in turn, keeping each subscription, then continues with `next`.
    private func subscribe(_ rules: ArraySlice<(MatchRule, @Sendable (LockMonitor, Message) -> Void)>,
                           failure: @escaping @Sendable (DBusError) -> Void,
                           next: @escaping @Sendable () -> Void) {
        guard let (rule, handler) = rules.first else { return next() }
        let rest = rules.dropFirst()
        connection.subscribe(rule, { [weak self] signal in
            if let self { handler(self, signal) }
        }, completion: { [weak self] result in
            switch result {
            case .success(let subscription):
                guard let self, self.keep(subscription) else {
                    subscription.cancel()
                    return failure(Self.stoppedError)
                }
                self.subscribe(rest, failure: failure, next: next)
            case .failure(let error):
                failure(error)
            }
        })
    }

    private func watchOwner(completion: @escaping Completion, failure: @escaping @Sendable (DBusError) -> Void) {
        connection.watchNameOwner(LogindNames.busName, { [weak self] owner in
            self?.ownerChanged(to: owner)
        }, completion: { [weak self] result in
            switch result {
            case .success(let subscription):
                guard let self, self.keep(subscription, running: true, completion: completion) else {
                    subscription.cancel()
                    return failure(Self.stoppedError)
                }
                self.finishStartIfSettled()
            case .failure(let error):
                failure(error)
            }
        })
    }

    /// Records a subscription (and, for the last one, that the monitor runs and who waits for the
    /// first lookup); false when the monitor was stopped in the meantime.
    private func keep(_ subscription: SignalSubscription, running: Bool = false,
                      completion: Completion? = nil) -> Bool {
        state.withLock { state in
            guard state.isLive else { return false }
            state.subscriptions.append(subscription)
            if running {
                state.phase = .running
                state.pendingStart = completion
            }
            return true
        }
    }

    /// Completes `start` once the monitor runs and no lookup is on its way.
    private func finishStartIfSettled() {
        let completion = state.withLock { state -> Completion? in
            guard state.phase == .running, !state.looking else { return nil }
            defer { state.pendingStart = nil }
            return state.pendingStart
        }
        completion?(.success(()))
    }

    // MARK: logind coming and going

    /// `org.freedesktop.login1` changed hands (or the bus went away: `owner` nil). The session
    /// of the old logind is forgotten; a new one is asked from scratch.
    private func ownerChanged(to owner: String?) {
        let (change, lookup) = state.withLock { state -> (Bool?, (String, UInt64)?) in
            guard state.isLive, state.owner != owner else { return (nil, nil) }
            state.generation &+= 1
            state.owner = owner
            state.looking = owner != nil
            state.lookAgain = false
            state.user = nil
            state.session = nil
            let change = Self.setLocked(false, in: &state)
            return (change, owner.map { ($0, state.generation) })
        }
        deliver(change)
        if let (owner, generation) = lookup {
            look(owner: owner, generation: generation)
        } else {
            finishStartIfSettled()
        }
    }

    /// Looks the session up at logind `owner` and takes the result if the generation still holds.
    private func look(owner: String, generation: UInt64) {
        let lookup = LogindSessionLookup(connection: connection, owner: owner, uid: uid, sessionID: sessionID)
        lookup.run { [weak self] result in
            guard let self else { return }
            let (change, again) = self.state.withLock { state -> (Bool?, Bool) in
                guard state.isLive, state.generation == generation else { return (nil, false) }
                state.user = result.user
                state.session = result.session
                let change = Self.setLocked(result.session?.locked ?? false, in: &state)
                let again = state.lookAgain
                state.lookAgain = false
                state.looking = again
                return (change, again)
            }
            self.deliver(change)
            if again {
                self.look(owner: owner, generation: generation)
            } else {
                self.finishStartIfSettled()
            }
        }
    }

    /// Looks the session up again (or once more after the lookup on its way).
    private func refresh() {
        let lookup = state.withLock { state -> (String, UInt64)? in
            guard state.isLive, let owner = state.owner else { return nil }
            if state.looking {
                state.lookAgain = true
                return nil
            }
            state.looking = true
            return (owner, state.generation)
        }
        if let (owner, generation) = lookup { look(owner: owner, generation: generation) }
    }

    // MARK: Signals

    private func sessionPropertiesChanged(_ signal: Message) {
        enum Action { case none, set(Bool), refresh }
        let (action, change) = state.withLock { state -> (Action, Bool?) in
            guard state.isLive, state.accepts(signal), let path = signal.path, path == state.session?.path,
                  let properties = LogindDecoding.propertiesChanged(signal.body),
                  properties.interface == LogindNames.sessionInterface else { return (.none, nil) }
            if let locked = LogindDecoding.bool(properties.changed[LogindNames.lockedHint]) {
                // A lookup on its way may be reading an older value, or settle on another session.
                guard !state.looking else { return (.refresh, nil) }
                state.session?.locked = locked
                return (.set(locked), Self.setLocked(locked, in: &state))
            }
            return properties.invalidated.contains(LogindNames.lockedHint) ? (.refresh, nil) : (.none, nil)
        }
        deliver(change)
        if case .refresh = action { refresh() }
    }

    private func userPropertiesChanged(_ signal: Message) {
        let relevant = state.withLock { state -> Bool in
            guard state.isLive, state.accepts(signal), let path = signal.path,
                  state.user == nil || state.user == path,
                  let properties = LogindDecoding.propertiesChanged(signal.body),
                  properties.interface == LogindNames.userInterface else { return false }
            return properties.changed[LogindNames.display] != nil
                || properties.invalidated.contains(LogindNames.display)
        }
        if relevant { refresh() }
    }

    private func managerSignal(_ signal: Message) {
        let relevant = state.withLock { state -> Bool in
            guard state.isLive, state.accepts(signal),
                  let path = LogindDecoding.sessionSignalPath(signal.body) else { return false }
            switch signal.member {
            case "SessionRemoved":
                return path == state.session?.path
            case "SessionNew":
                // The display session is announced through the user's `Display`; a fallback is
                // worth replacing by whatever came.
                return state.session?.source != .display
            default:
                return false
            }
        }
        if relevant { refresh() }
    }

    // MARK: Reporting

    /// Sets `locked`; returns the new value if it changed.
    private static func setLocked(_ locked: Bool, in state: inout State) -> Bool? {
        guard state.locked != locked else { return nil }
        state.locked = locked
        return locked
    }

    private func deliver(_ change: Bool?) {
        if let change { onChange(change) }
    }
}
