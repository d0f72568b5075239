import DBus

/// Follows logind's `PrepareForSleep(b)` on the system bus: true just before the system suspends
/// or hibernates, false once it is back (also when the sleep failed).
///
/// Event-driven like `LockMonitor`, on the connection's I/O thread, with no timer or polling;
/// `SystemServiceFollower` follows logind's name, so only a signal from logind's current owner
/// counts and nothing is logged while there is no logind.
///
/// Without a *delay inhibitor lock* logind suspends at once after the signal, and what the
/// handler sends may never leave the machine before it freezes. With `delaysSleep`, the monitor
/// holds one (`Manager.Inhibit("sleep", …, "delay")`, a file descriptor) while logind runs and the
/// system is awake: taken when logind appears and again at each wake-up, released as soon as
/// `onChange(true)` returns — so the handler does its work synchronously, and the sleep waits for
/// it (at most logind's `InhibitDelayMaxSec`, 5 s by default). A lock logind refuses is simply
/// not held.
///
/// When logind goes away (or the bus connection is lost) while the system was preparing for
/// sleep, `onChange(false)` follows: nobody is left to say the wake-up, and what waited for it
/// must not wait for ever.
///
/// `onChange` gets each change of `isPreparingForSleep`, in order, on the I/O thread. The monitor
/// never calls it while holding its own lock.
public final class SleepMonitor: Sendable {
    public typealias Handler = @Sendable (_ preparing: Bool) -> Void
    public typealias Completion = @Sendable (Result<Void, DBusError>) -> Void

    /// What logind said, and the delay lock held meanwhile.
    private struct Tracked: Sendable {
        var preparing = false
        /// The inhibitor's file descriptor; closing it (dropping the last reference) releases it.
        var delayLock: UnixFD?

        /// Logind went: its lock is worthless, and a sleep it announced is over.
        mutating func forget() -> Bool? {
            delayLock = nil
            defer { preparing = false }
            return preparing ? false : nil
        }
    }

    private let onChange: Handler
    private let follower: SystemServiceFollower<Tracked, UnixFD?, Bool?>

    /// A monitor on `connection`, a connection to the system bus; `delaysSleep`: hold a delay lock
    /// (see above). Nothing happens until `start`.
    public init(connection: Connection, delaysSleep: Bool = false, onChange: @escaping Handler) {
        self.onChange = onChange
        follower = SystemServiceFollower(
            connection: connection, busName: LogindNames.busName, name: "the sleep monitor", tracked: Tracked(),
            forget: { $0.forget() },
            read: { owner, done in
                guard delaysSleep else { return done(nil) }
                Self.inhibit(connection: connection, owner: owner, completion: done)
            },
            take: { lock, tracked in
                // A lock granted while the sleep is already on its way would hold it up for nothing.
                if !tracked.preparing, let lock { tracked.delayLock = lock }
                return nil
            },
            report: { change in if let change { onChange(change) } })
    }

    deinit {
        stop()
    }

    /// Whether logind said the system is going to sleep and has not said it woke up yet.
    public var isPreparingForSleep: Bool {
        follower.withTracked { $0.preparing }
    }

    /// Whether the monitor holds a delay lock now.
    public var holdsDelayLock: Bool {
        follower.withTracked { $0.delayLock != nil }
    }

    /// Subscribes to `PrepareForSleep` and follows `org.freedesktop.login1`. `completion` runs (on
    /// the I/O thread) once the match is on the bus and, if logind runs, the delay lock was asked
    /// for. It fails only when the bus refuses or `stop` came first, never because logind is absent.
    public func start(completion: @escaping Completion) {
        follower.start(signals: [
            (MatchRule(sender: LogindNames.busName, interface: LogindNames.managerInterface,
                       member: LogindNames.prepareForSleep, path: LogindNames.managerPath),
             { @Sendable [weak self] in self?.prepareForSleep($0) }),
        ], completion: completion)
    }

    /// Stops following logind and releases the lock, without reporting anything.
    public func stop() {
        follower.stop()
    }

    private func prepareForSleep(_ signal: Message) {
        let (change, lock) = follower.fromOwner(signal) { tracked, _ -> (Bool?, UnixFD?) in
            guard let start = LogindDecoding.prepareForSleep(signal.body), start != tracked.preparing else {
                return (nil, nil)
            }
            tracked.preparing = start
            defer { tracked.delayLock = nil }
            return (start, tracked.delayLock)
        } ?? (nil, nil)
        guard let change else { return }
        onChange(change)
        // The handler is done: the sleep may go on (the lock's last reference goes here).
        withExtendedLifetime(lock) {}
        if !change { follower.reread() }  // awake again: take a new lock
    }

    /// `Manager.Inhibit("sleep", "mprisd", why, "delay")` at logind's unique name; the lock, or
    /// nil on any error (not allowed, an old logind).
    private static func inhibit(connection: Connection, owner: String, completion: @escaping @Sendable (UnixFD?) -> Void) {
        let message = Message.methodCall(
            destination: owner, path: LogindNames.managerPath, interface: LogindNames.managerInterface,
            member: "Inhibit",
            body: [.string("sleep"), .string("mprisd"), .string("pause media players before sleep"), .string("delay")])
        connection.call(message) { result in
            guard case .unixFD(let lock)? = (try? result.get())?.body.first else { return completion(nil) }
            completion(lock)
        }
    }
}
