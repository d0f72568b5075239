import DBus
import SessionCore
import Synchronization

/// The daemon's one view of the MPRIS players on the session bus (issue 23): one watch of the
/// `org.mpris.MediaPlayer2.*` names, and per player one match rule, one `GetAll`, one read of
/// its `Identity` and of its owner's process id. Everything that governs players reads it — the
/// foreign-player policy (`ForeignPlayerTracker`), the arbiter of the media keys
/// (`PlayerArbiter`), the headset (`HeadsetPlayer`) — and none keeps a watch of its own.
///
/// How it works, on the connection's I/O thread, without timers or polling:
/// - Names: `NameOwnerChanged` is followed first, then `ListNames` + `GetNameOwner` find the
///   players already there; the bus delivers signals and replies in order, so the newest word
///   about a name is the last one applied. One owner gets at most
///   `PlayerOwnerQuota.playersPerOwner` names listed (each costs a match rule and calls).
/// - Per player: one rule for every signal of its unique name on `/org/mpris/MediaPlayer2`
///   (`PropertiesChanged` and `Seeked` alike), then `GetAll`. Every call has a timeout: a
///   player that never answers costs a log line, never a blocked thread.
/// - Readers `observe` the events (`PlayerDirectoryEvent`), in order; one that comes late is
///   told the players already there first.
///
/// Thread safety: the table behind one lock never held while calling out; events are told
/// under a second lock, so every reader sees them in the order they happened. A reader must not
/// observe, start or stop the directory from inside its handler.
public final class PlayerDirectory: Sendable {
    public typealias Handler = @Sendable (PlayerDirectoryEvent) -> Void
    public typealias Log = @Sendable (String) -> Void

    /// The session bus, where the players are.
    public let connection: Connection
    let log: Log
    let owners: OwnerProcessIDs
    let state = Mutex(State())
    /// Held while an event is told, so that readers see the events in order.
    let telling = Mutex(())

    /// How long a player gets to answer any call.
    static let callTimeout: Duration = .seconds(5)

    struct Listed: Sendable {
        var player: DirectoryPlayer
        var signals: SignalSubscription?
    }

    struct State {
        enum Phase { case created, listing, listed, stopped }
        var phase = Phase.created
        var players: [String: Listed] = [:]
        var quota = PlayerOwnerQuota()
        var appearances: UInt64 = 0
        var nameSubscription: SignalSubscription?
        var eventToken: UInt64?
        var handlers: [UInt64: Handler] = [:]
        var nextHandler: UInt64 = 0
        /// `start`'s completions waiting for the first look at the bus.
        var waiting: [@Sendable (Result<Void, DBusError>) -> Void] = []
        /// How the first look ended, for `start`s that come after it.
        var listingResult: Result<Void, DBusError>?
    }

    /// A directory of the players on `connection` (the session bus). Nothing happens until `start`.
    public init(connection: Connection, log: @escaping Log = { _ in }) {
        self.connection = connection
        self.log = log
        owners = OwnerProcessIDs(connection: connection)
    }

    deinit { stop() }

    // MARK: Reading

    /// Every player listed now, by bus name.
    public var players: [DirectoryPlayer] {
        state.withLock { state in state.players.values.map(\.player) }.sorted { $0.busName < $1.busName }
    }

    /// The player listed as `busName`, if any.
    public func player(_ busName: String) -> DirectoryPlayer? {
        state.withLock { $0.players[busName]?.player }
    }

    /// `handler` is told every player listed now (`appeared`, then `read` if it was), then every
    /// event from now on, until the subscription is cancelled.
    public func observe(_ handler: @escaping Handler) -> EventSubscription {
        let token = telling.withLock { _ -> UInt64 in
            let (token, current) = state.withLock { state -> (UInt64, [DirectoryPlayer]) in
                state.nextHandler += 1
                state.handlers[state.nextHandler] = handler
                return (state.nextHandler, state.players.values.map(\.player).sorted { $0.busName < $1.busName })
            }
            for player in current {
                handler(.appeared(player))
                if player.isRead { handler(.read(player)) }
            }
            return token
        }
        return EventSubscription { [weak self] in
            _ = self?.state.withLock { $0.handlers.removeValue(forKey: token) }
        }
    }

    /// Makes a change (`make`, which returns what to tell of it) and tells every reader, in the
    /// order they began observing — both under `telling`, so that no reader ever sees a player's
    /// events out of order, whichever threads made them.
    func tell(_ make: () -> [PlayerDirectoryEvent]) {
        telling.withLock { _ in
            let events = make()
            guard !events.isEmpty else { return }
            let handlers = state.withLock { state in state.handlers.sorted { $0.key < $1.key }.map(\.value) }
            for event in events {
                for handler in handlers { handler(event) }
            }
        }
    }

    /// A reader's start: `handler` observes (`observe`), `keep` takes the subscription (false:
    /// the reader stopped meanwhile, and it is cancelled), then the directory starts if no other
    /// reader started it; `completion` gets the first look's result.
    public func attach(_ handler: @escaping Handler, keep: (EventSubscription) -> Bool,
                completion: @escaping @Sendable (Result<Void, DBusError>) -> Void) {
        let observation = observe(handler)
        guard keep(observation) else {
            observation.cancel()
            return completion(.failure(.failed("the reader was stopped while starting")))
        }
        start(completion: completion)
    }

    // MARK: Life

    /// Starts following the bus, once; `completion` runs (on the I/O thread) when the players
    /// there now are known and being read. Called again — each reader starts it — it only waits
    /// for (or repeats) the first look's result. It fails when the bus refuses the subscription
    /// or `stop` came first.
    public func start(completion: @escaping @Sendable (Result<Void, DBusError>) -> Void = { _ in }) {
        enum Step { case begin, wait, done(Result<Void, DBusError>) }
        let step = state.withLock { state -> Step in
            switch state.phase {
            case .created:
                state.phase = .listing
                state.waiting.append(completion)
                return .begin
            case .listing:
                state.waiting.append(completion)
                return .wait
            case .listed:
                return .done(state.listingResult ?? .success(()))
            case .stopped:
                return .done(.failure(Self.stoppedError))
            }
        }
        switch step {
        case .wait: return
        case .done(let result): return completion(result)
        case .begin: break
        }
        let token = connection.onEvent { [weak self] event in
            if event == .disconnected { self?.dropAll(.busLost) }
        }
        state.withLock { $0.eventToken = token }
        let rule = MatchRule(sender: BusDaemon.name, interface: BusDaemon.interface,
                             member: "NameOwnerChanged", path: BusDaemon.path)
        connection.subscribe(rule, { [weak self] in self?.nameOwnerChanged($0) }) { [weak self] result in
            guard let self else {
                if case .success(let subscription) = result { subscription.cancel() }
                return
            }
            switch result {
            case .success(let subscription):
                guard self.keepNameSubscription(subscription) else {
                    subscription.cancel()
                    return self.listingEnded(.failure(Self.stoppedError))
                }
                self.listPlayers()
            case .failure(let error):
                self.listingEnded(.failure(error))
            }
        }
    }

    /// Stops following the bus: every player's subscription ends and readers are told each
    /// player `vanished(.stopped)`. Idempotent.
    public func stop() {
        let (subscription, token) = state.withLock { state -> (SignalSubscription?, UInt64?) in
            state.phase = .stopped
            defer {
                state.nameSubscription = nil
                state.eventToken = nil
            }
            return (state.nameSubscription, state.eventToken)
        }
        subscription?.cancel()
        if let token { connection.removeEventHandler(token) }
        dropAll(.stopped)
        listingEnded(.failure(Self.stoppedError))
    }

    static let stoppedError = DBusError.failed("the player directory was stopped")

    private func keepNameSubscription(_ subscription: SignalSubscription) -> Bool {
        state.withLock { state in
            guard state.phase == .listing else { return false }
            state.nameSubscription = subscription
            return true
        }
    }

    /// The first look at the bus ended: every waiting `start` is told how.
    func listingEnded(_ result: Result<Void, DBusError>) {
        let waiting = state.withLock { state -> [@Sendable (Result<Void, DBusError>) -> Void] in
            if state.phase == .listing { state.phase = .listed }
            if state.listingResult == nil { state.listingResult = result }
            defer { state.waiting = [] }
            return state.waiting
        }
        for completion in waiting { completion(result) }
    }

    /// Forgets every player (the bus went away, or the directory stops).
    private func dropAll(_ reason: PlayerDirectoryVanishing) {
        var subscriptions: [SignalSubscription] = []
        tell {
            let listed = state.withLock { state in
                defer { state.players.removeAll() }
                return state.players.values.sorted { $0.player.busName < $1.player.busName }
            }
            subscriptions = listed.compactMap(\.signals)
            return listed.map { .vanished($0.player, reason: reason) }
        }
        for subscription in subscriptions { subscription.cancel() }
    }
}
