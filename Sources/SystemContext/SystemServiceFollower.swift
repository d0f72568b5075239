import DBus
import Synchronization

/// Follows one service on the system bus (BlueZ, logind) for a monitor that mirrors part of it:
/// the part of `BluetoothMonitor` and `LockMonitor` that is the same, kept in one place because it
/// is where the subtle ordering lives; each monitor keeps only which signals it wants and what a
/// read or a signal means for it.
///
/// All of it runs on the connection's I/O thread, without Swift concurrency, timers or polling:
/// - `start` subscribes to the monitor's signals, one after the other, then follows the owner of
///   the bus name. The matches are on the bus before the name is looked at, so nothing falls
///   between the first read and the signals. A failure part-way undoes what was set up.
/// - While nobody owns the name nothing is read and nothing is logged: a service that is not
///   installed, not started yet or restarting is normal, not an error.
/// - When an owner appears, `read` asks that very owner (its unique name) for a snapshot, and
///   `take` puts it in. `start` completes once the follower runs and no read is on its way.
/// - When the owner changes or goes, or the bus connection is lost, `forget` drops what the old
///   owner said, and the difference is reported; a read from an older owner is dropped.
/// - `reread` reads the current owner again (logind's signals only say "look again"); asked while
///   a read is on its way, it makes that read run once more when it returns.
/// - `stop` cancels everything and forgets without reporting.
///
/// `Tracked` is the monitor's own state; it lives under the follower's lock, so a signal is
/// checked against the current owner and applied in one step (`fromOwner`). `Change` is what
/// `report` gets, on the I/O thread and never under the lock.
final class SystemServiceFollower<Tracked: Sendable, Snapshot: Sendable, Change: Sendable>: Sendable {
    typealias Completion = @Sendable (Result<Void, DBusError>) -> Void

    private let connection: Connection
    private let busName: String
    /// "the lock monitor", for the errors of `start`.
    private let name: String
    private let stoppedError: DBusError
    private let forget: @Sendable (inout Tracked) -> Change
    private let read: @Sendable (_ owner: String, _ done: @escaping @Sendable (Snapshot) -> Void) -> Void
    private let take: @Sendable (Snapshot, inout Tracked) -> Change
    private let report: @Sendable (Change) -> Void
    private let state: Mutex<State>

    private struct State {
        enum Phase { case created, starting, running, stopped }

        var phase = Phase.created
        var subscriptions: [SignalSubscription] = []
        var eventToken: UInt64?
        /// The unique name of the service's current owner, if any.
        var owner: String?
        /// Bumped on every owner change and on `stop`: a read from an older generation asked an
        /// owner that is gone, and is dropped.
        var generation: UInt64 = 0
        /// A read is on its way.
        var reading = false
        /// Something changed while a read was on its way: read again when it returns.
        var readAgain = false
        /// `start`'s completion, held until the first read (if the service runs) is in.
        var pendingStart: Completion?
        var tracked: Tracked

        var isLive: Bool { phase == .starting || phase == .running }
    }

    /// A follower of `busName` on `connection` (a system bus connection). `tracked` is the
    /// monitor's state with the service unknown. The closures must not capture the monitor
    /// strongly:
    /// - `forget` (under the lock): the owner changed or went; drop what it said, return the change.
    /// - `read`: ask `owner` for a snapshot and call `done` with it, on the I/O thread.
    /// - `take` (under the lock): put a snapshot from the current owner in, return the change.
    /// - `report` (outside the lock): pass a change on to the monitor's handler.
    init(connection: Connection, busName: String, name: String, tracked: Tracked,
         forget: @escaping @Sendable (inout Tracked) -> Change,
         read: @escaping @Sendable (_ owner: String, _ done: @escaping @Sendable (Snapshot) -> Void) -> Void,
         take: @escaping @Sendable (Snapshot, inout Tracked) -> Change,
         report: @escaping @Sendable (Change) -> Void) {
        self.connection = connection
        self.busName = busName
        self.name = name
        self.stoppedError = .failed("\(name) was stopped while starting")
        self.forget = forget
        self.read = read
        self.take = take
        self.report = report
        self.state = Mutex(State(tracked: tracked))
    }

    /// Whether somebody owns the bus name now.
    var isServiceRunning: Bool {
        state.withLock { $0.owner != nil }
    }

    /// Reads the monitor's state.
    func withTracked<R: Sendable>(_ body: (Tracked) -> R) -> R {
        state.withLock { body($0.tracked) }
    }

    /// Runs `body` on the monitor's state, under the lock, if the follower is live and `signal`
    /// comes from the current owner (nil otherwise). `reading`: a read is on its way, which may or
    /// may not include what the signal says.
    func fromOwner<R: Sendable>(_ signal: Message, _ body: (inout Tracked, _ reading: Bool) -> R) -> R? {
        state.withLock { state -> R? in
            guard state.isLive, let owner = state.owner, signal.sender == owner else { return nil }
            return body(&state.tracked, state.reading)
        }
    }

    /// Subscribes to `signals` in order, then follows the bus name. `completion` runs (on the I/O
    /// thread, or at once on the caller's thread if the connection is closed) once the follower
    /// runs and, if the service runs, the first read is in. It fails only when the bus refuses (a
    /// match rule rejected, the connection gone) or `stop` came first, never because the service
    /// is absent or does not answer. A follower starts once; a stopped one stays stopped.
    func start(signals: [(MatchRule, @Sendable (Message) -> Void)], completion: @escaping Completion) {
        let allowed = state.withLock { state -> Bool in
            guard state.phase == .created else { return false }
            state.phase = .starting
            return true
        }
        guard allowed else { return completion(.failure(.failed("\(name) was already started"))) }
        let token = connection.onEvent { [weak self] event in
            if event == .disconnected { self?.ownerChanged(to: nil) }
        }
        state.withLock { $0.eventToken = token }

        // A failure part-way undoes what was set up, so a failed follower holds nothing on the bus.
        let fail: @Sendable (DBusError) -> Void = { [weak self] error in
            self?.stop()
            completion(.failure(error))
        }
        subscribe(signals[...], failure: fail) { [weak self, stoppedError] in
            guard let self else { return fail(stoppedError) }
            self.watchOwner(completion: completion, failure: fail)
        }
    }

    /// Cancels the subscriptions and forgets the monitor's state without reporting it.
    func stop() {
        let (subscriptions, token, pendingStart) = state.withLock { state in
            state.phase = .stopped
            state.generation &+= 1
            state.owner = nil
            state.reading = false
            state.readAgain = false
            _ = forget(&state.tracked)
            defer {
                state.subscriptions.removeAll()
                state.eventToken = nil
                state.pendingStart = nil
            }
            return (state.subscriptions, state.eventToken, state.pendingStart)
        }
        for subscription in subscriptions { subscription.cancel() }
        if let token { connection.removeEventHandler(token) }
        pendingStart?(.failure(stoppedError))
    }

    /// Reads the current owner again (or once more after the read on its way), for signals that
    /// only say something changed.
    func reread() {
        let next = state.withLock { state -> (String, UInt64)? in
            guard state.isLive, let owner = state.owner else { return nil }
            if state.reading {
                state.readAgain = true
                return nil
            }
            state.reading = true
            return (owner, state.generation)
        }
        if let (owner, generation) = next { readSnapshot(of: owner, generation: generation) }
    }

    // MARK: Setting up

    /// Subscribes to each rule in turn, keeping each subscription, then continues with `next`.
    private func subscribe(_ signals: ArraySlice<(MatchRule, @Sendable (Message) -> Void)>,
                           failure: @escaping @Sendable (DBusError) -> Void,
                           next: @escaping @Sendable () -> Void) {
        guard let (rule, handler) = signals.first else { return next() }
        let rest = signals.dropFirst()
        connection.subscribe(rule, handler) { [weak self, stoppedError] result in
            switch result {
            case .success(let subscription):
                guard let self, self.keep(subscription) else {
                    subscription.cancel()
                    return failure(stoppedError)
                }
                self.subscribe(rest, failure: failure, next: next)
            case .failure(let error):
                failure(error)
            }
        }
    }

    private func watchOwner(completion: @escaping Completion, failure: @escaping @Sendable (DBusError) -> Void) {
        connection.watchNameOwner(busName, { [weak self] owner in
            self?.ownerChanged(to: owner)
        }, completion: { [weak self, stoppedError] result in
            switch result {
            case .success(let subscription):
                guard let self, self.keep(subscription, running: true, completion: completion) else {
                    subscription.cancel()
                    return failure(stoppedError)
                }
                self.finishStartIfSettled()
            case .failure(let error):
                failure(error)
            }
        })
    }

    /// Records a subscription (and, for the last one, that the follower runs and who waits for the
    /// first read); false when it was stopped in the meantime.
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

    /// Completes `start` once the follower runs and no read is on its way.
    private func finishStartIfSettled() {
        let completion = state.withLock { state -> Completion? in
            guard state.phase == .running, !state.reading else { return nil }
            defer { state.pendingStart = nil }
            return state.pendingStart
        }
        completion?(.success(()))
    }

    // MARK: The service coming and going

    /// The bus name changed hands (or the bus went away: `owner` nil). What the old owner said is
    /// forgotten; a new one is read from scratch.
    private func ownerChanged(to owner: String?) {
        let (change, next) = state.withLock { state -> (Change?, (String, UInt64)?) in
            guard state.isLive, state.owner != owner else { return (nil, nil) }
            state.generation &+= 1
            state.owner = owner
            state.reading = owner != nil
            state.readAgain = false
            let change = forget(&state.tracked)
            return (change, owner.map { ($0, state.generation) })
        }
        if let change { report(change) }
        if let (owner, generation) = next {
            readSnapshot(of: owner, generation: generation)
        } else {
            finishStartIfSettled()
        }
    }

    /// Reads `owner` and takes the snapshot if the generation still holds; reads once more if
    /// something changed meanwhile.
    private func readSnapshot(of owner: String, generation: UInt64) {
        read(owner) { [weak self] snapshot in
            guard let self else { return }
            let (change, again) = self.state.withLock { state -> (Change?, Bool) in
                guard state.isLive, state.generation == generation else { return (nil, false) }
                let change = self.take(snapshot, &state.tracked)
                let again = state.readAgain
                state.readAgain = false
                state.reading = again
                return (change, again)
            }
            if let change { self.report(change) }
            if again {
                self.readSnapshot(of: owner, generation: generation)
            } else {
                self.finishStartIfSettled()
            }
        }
    }
}
