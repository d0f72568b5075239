import DBus

/// Follows logind's `PrepareForSleep(b)` on the system bus: true just before the system suspends
/// or hibernates, false once it is back (also when the sleep failed).
///
/// Event-driven like `LockMonitor`, on the connection's I/O thread, with no timer or polling;
/// `SystemServiceFollower` follows logind's name, so only a signal from logind's current owner
/// counts (a program that merely *claims* the name's signal is not believed) and nothing is logged
/// while there is no logind. Nothing is read when logind appears: a daemon that starts while the
/// system is already on its way to sleep has nothing playing to pause yet.
///
/// When logind goes away (or the bus connection is lost) while the system was preparing for
/// sleep, `onChange(false)` follows: nobody is left to say the wake-up, and what waited for it
/// must not wait for ever.
///
/// `onChange` gets each change of `isPreparingForSleep`, in order, on the I/O thread; it must
/// return quickly. The monitor never calls it while holding its own lock.
public final class SleepMonitor: Sendable {
    public typealias Handler = @Sendable (_ preparing: Bool) -> Void
    public typealias Completion = @Sendable (Result<Void, DBusError>) -> Void

    private let onChange: Handler
    private let follower: SystemServiceFollower<Bool, Void, Bool?>

    /// A monitor on `connection`, a connection to the system bus. Nothing happens until `start`.
    public init(connection: Connection, onChange: @escaping Handler) {
        self.onChange = onChange
        follower = SystemServiceFollower(
            connection: connection, busName: LogindNames.busName, name: "the sleep monitor", tracked: false,
            forget: { preparing in
                defer { preparing = false }
                return preparing ? false : nil
            },
            read: { _, done in done(()) },
            take: { _, _ in nil },
            report: { change in if let change { onChange(change) } })
    }

    deinit {
        stop()
    }

    /// Whether logind said the system is going to sleep and has not said it woke up yet.
    public var isPreparingForSleep: Bool {
        follower.withTracked { $0 }
    }

    /// Subscribes to `PrepareForSleep` and follows `org.freedesktop.login1`. `completion` runs (on
    /// the I/O thread) once the match is on the bus: from then on no signal is missed. It fails
    /// only when the bus refuses or `stop` came first, never because logind is absent.
    public func start(completion: @escaping Completion) {
        follower.start(signals: [
            (MatchRule(sender: LogindNames.busName, interface: LogindNames.managerInterface,
                       member: LogindNames.prepareForSleep, path: LogindNames.managerPath),
             { @Sendable [weak self] in self?.prepareForSleep($0) }),
        ], completion: completion)
    }

    /// Stops following logind, without reporting anything.
    public func stop() {
        follower.stop()
    }

    private func prepareForSleep(_ signal: Message) {
        let change = follower.fromOwner(signal) { preparing, _ -> Bool? in
            guard let start = LogindDecoding.prepareForSleep(signal.body), start != preparing else { return nil }
            preparing = start
            return start
        } ?? nil
        if let change { onChange(change) }
    }
}
