import DBus
import Glibc

/// Follows whether the user's screen is locked: the `LockedHint` of the user's graphical session
/// in systemd-logind, on the system bus.
///
/// How it works, all of it on the connection's I/O thread and without Swift concurrency, timers or
/// polling (the daemon must wake zero times while nothing happens); following logind's name, its
/// subscriptions and its restarts is `SystemServiceFollower`'s part:
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

    private let onChange: Handler
    private let follower: SystemServiceFollower<Tracked, LogindSessionLookup.Result, Bool?>

    /// What logind said: the user, the session found and its `LockedHint`.
    private struct Tracked {
        var user: ObjectPath?
        var session: LogindSession?
        var locked = false

        /// Forgets the session of a logind that is gone: the screen counts as unlocked.
        mutating func forget() -> Bool? {
            user = nil
            session = nil
            return setLocked(false)
        }

        mutating func take(_ result: LogindSessionLookup.Result) -> Bool? {
            user = result.user
            session = result.session
            return setLocked(result.session?.locked ?? false)
        }

        /// Sets `locked`; returns the new value if it changed.
        mutating func setLocked(_ locked: Bool) -> Bool? {
            guard self.locked != locked else { return nil }
            self.locked = locked
            return locked
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
        self.onChange = onChange
        follower = SystemServiceFollower(
            connection: connection, busName: LogindNames.busName, name: "the lock monitor", tracked: Tracked(),
            forget: { $0.forget() },
            read: { owner, done in
                LogindSessionLookup(connection: connection, owner: owner, uid: uid, sessionID: sessionID)
                    .run(completion: done)
            },
            take: { result, tracked in tracked.take(result) },
            report: { change in if let change { onChange(change) } })
    }

    deinit {
        stop()
    }

    /// Whether the user's session is locked now (false while logind or the session is unknown).
    public var isLocked: Bool {
        follower.withTracked { $0.locked }
    }

    /// The session followed now, if any (for `mprisd status` and diagnostics).
    public var sessionPath: ObjectPath? {
        follower.withTracked { $0.session?.path }
    }

    /// Whether logind currently owns `org.freedesktop.login1`.
    public var isLogindRunning: Bool {
        follower.isServiceRunning
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
        follower.start(signals: [
            (MatchRule(sender: LogindNames.busName, interface: StandardInterfaceName.properties,
                       member: "PropertiesChanged", pathNamespace: LogindNames.sessionNamespace,
                       arguments: [0: LogindNames.sessionInterface]),
             { @Sendable [weak self] in self?.sessionPropertiesChanged($0) }),
            (MatchRule(sender: LogindNames.busName, interface: StandardInterfaceName.properties,
                       member: "PropertiesChanged", pathNamespace: LogindNames.userNamespace,
                       arguments: [0: LogindNames.userInterface]),
             { @Sendable [weak self] in self?.userPropertiesChanged($0) }),
            (MatchRule(sender: LogindNames.busName, interface: LogindNames.managerInterface,
                       path: LogindNames.managerPath),
             { @Sendable [weak self] in self?.managerSignal($0) }),
        ], completion: completion)
    }

    /// Stops following logind: cancels the subscriptions and forgets the session, without
    /// reporting a change (the screen did not unlock; the monitor stopped looking).
    public func stop() {
        follower.stop()
    }

    // MARK: Signals

    private func sessionPropertiesChanged(_ signal: Message) {
        let (change, refresh) = follower.fromOwner(signal) { tracked, looking -> (Bool?, Bool) in
            guard let path = signal.path, path == tracked.session?.path,
                  let properties = LogindDecoding.propertiesChanged(signal.body),
                  properties.interface == LogindNames.sessionInterface else { return (nil, false) }
            if let locked = LogindDecoding.bool(properties.changed[LogindNames.lockedHint]) {
                // A lookup on its way may be reading an older value, or settle on another session.
                guard !looking else { return (nil, true) }
                tracked.session?.locked = locked
                return (tracked.setLocked(locked), false)
            }
            return (nil, properties.invalidated.contains(LogindNames.lockedHint))
        } ?? (nil, false)
        if let change { onChange(change) }
        if refresh { follower.reread() }
    }

    private func userPropertiesChanged(_ signal: Message) {
        let relevant = follower.fromOwner(signal) { tracked, _ -> Bool in
            guard let path = signal.path, tracked.user == nil || tracked.user == path,
                  let properties = LogindDecoding.propertiesChanged(signal.body),
                  properties.interface == LogindNames.userInterface else { return false }
            return properties.changed[LogindNames.display] != nil
                || properties.invalidated.contains(LogindNames.display)
        } ?? false
        if relevant { follower.reread() }
    }

    private func managerSignal(_ signal: Message) {
        let relevant = follower.fromOwner(signal) { tracked, _ -> Bool in
            guard let path = LogindDecoding.sessionSignalPath(signal.body) else { return false }
            switch signal.member {
            case "SessionRemoved":
                return path == tracked.session?.path
            case "SessionNew":
                // The display session is announced through the user's `Display`; a fallback is
                // worth replacing by whatever came.
                return tracked.session?.source != .display
            default:
                return false
            }
        } ?? false
        if relevant { follower.reread() }
    }
}
