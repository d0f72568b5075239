import AudioPolicyClient
import DBus
import FoundationEssentials
import MPRISDirectory
import RemoteControl
import SessionCore
import Synchronization

/// The one arbiter for the media keys and the headset (issue 16): ranks every player the
/// daemon's `PlayerDirectory` lists by its `PlaybackStatus`, and keeps the choice
/// (`PlayerRanking`) of the player they act on.
///
/// It ranks every player — our own `mprisd play` players too, which the `ForeignPlayerTracker`
/// leaves alone — so both kinds rank together. `pauseCause` tells it, at
/// the moment a player reports Paused, whether the policy paused it (a call, a prompt, the lock)
/// and who: that pause keeps the player in its audio context just as the user's does, and
/// `mprisd players` says which it was.
///
/// The directory tells it each player's appearance, its status as read and as changed, its
/// process and its end, in order (PlayerArbiter+Players.swift). All on the connection's I/O
/// thread; idle, it costs nothing.
///
/// Where the daemon follows an audio server (`follow(streams:clock:)`), it reads which
/// players have playback streams from the daemon's one join (`PlayerStreams`), and a player whose streams have been gone for
/// `PlayerRanking.streamsGoneLimit` leaves its context (PlayerArbiter+Streams.swift): one timer
/// of the link's loop, armed only while such a deadline is pending.
///
/// Thread safety: state behind one lock, never held while calling out (the bus, `pauseCause`,
/// the handlers). Changes of the active player are announced under a second lock, in order.
public final class PlayerArbiter: Sendable {
    public typealias PauseCause = @Sendable (_ busName: String, _ owner: String) -> String?
    public typealias Log = @Sendable (String) -> Void

    let directory: PlayerDirectory
    /// The session bus (the directory's), where the keys' commands go.
    let connection: Connection
    let pauseCause: PauseCause
    let log: Log
    /// The time of the ranking and of its one timer (the streams-gone deadline): the link's
    /// once `follow(streams:clock:)` gives it; real time, without timers, before.
    let clock: Mutex<PolicyClock?> = Mutex(nil)
    let state: Mutex<State>
    /// Held while a change of the active player is announced, so that handlers see the changes
    /// in the order they happened.
    let announcing = Mutex(())
    /// Which key presses are a held key's repeats (`keyPress`).
    let keyRepeat = KeyRepeat()

    static let callTimeout: Duration = .seconds(5)

    /// A player ranked: the directory's appearance.
    struct Followed: Sendable {
        let owner: String
        let token: UInt64
    }

    struct State {
        enum Phase { case created, running, stopped }
        var phase = Phase.created
        var ranking: PlayerRanking
        var followed: [String: Followed] = [:]
        /// The directory's events, from `start` on.
        var observation: EventSubscription?
        var handlers: [UInt64: @Sendable (ActivePlayer?) -> Void] = [:]
        var nextHandler: UInt64 = 0
        /// The active player last announced.
        var announced: ActivePlayer?
        /// The players' streams on the audio server (PlayerArbiter+Streams.swift).
        var streams = StreamFollowing()
    }

    /// An arbiter of the players `directory` lists. Nothing happens until `start`.
    /// `streamsGoneLimit`: how long a player's streams may be gone before it leaves its
    /// context (tests shorten it).
    public init(directory: PlayerDirectory, ignore: PlayerIgnoreList = PlayerIgnoreList(),
                streamsGoneLimit: TimeInterval = PlayerRanking.streamsGoneLimit,
                pauseCause: @escaping PauseCause = { _, _ in nil }, log: @escaping Log) {
        self.directory = directory
        connection = directory.connection
        self.pauseCause = pauseCause
        self.log = log
        state = Mutex(State(ranking: PlayerRanking(ignore: ignore, streamsGoneLimit: streamsGoneLimit)))
    }

    deinit { stop() }

    /// Now, on the arbiter's clock.
    func now() -> Date {
        clock.withLock { $0 }?.date() ?? Date()
    }

    // MARK: The choice

    /// The player the keys act on now.
    public var active: ActivePlayer? { state.withLock { $0.ranking.active } }

    /// Every player, its rank and why (`Players()`).
    public func listing() -> PlayerListing { state.withLock { $0.ranking.listing() } }

    /// The active player and why, for `GetStatus` (`mprisd status`); nil: none.
    public func activeStatus() -> PolicyStatus.ActivePlayer? {
        listing().active.map { row in
            PolicyStatus.ActivePlayer(busName: row.busName, owner: row.owner, status: row.status, reason: row.reason,
                                      since: row.since, pinned: row.pinned)
        }
    }

    /// `handler` gets the active player at once, then each change of it (nil: none), on whichever
    /// thread made the change; it must not pin, unpin or cycle synchronously.
    public func onActiveChange(_ handler: @escaping @Sendable (ActivePlayer?) -> Void) -> EventSubscription {
        let token = announcing.withLock { _ -> UInt64 in
            let (token, current) = state.withLock { state in
                state.nextHandler += 1
                state.handlers[state.nextHandler] = handler
                return (state.nextHandler, state.announced)
            }
            handler(current)
            return token
        }
        return EventSubscription { [weak self] in
            _ = self?.state.withLock { $0.handlers.removeValue(forKey: token) }
        }
    }

    /// Pins `name` (a bus name or its short form).
    @discardableResult
    public func pin(_ name: String) throws(PlayerRanking.PinError) -> ActivePlayer {
        let at = now()
        let chosen = try state.withLock { state throws(PlayerRanking.PinError) in try state.ranking.pin(name, at: at) }
        log("pinned \(chosen.busName)")
        announce()
        return chosen
    }

    public func unpin() {
        let was = state.withLock { state in
            defer { state.ranking.unpin() }
            return state.ranking.pinned
        }
        if let was { log("unpinned \(was)") }
        announce()
    }

    /// Pins the next player (`PlayerRanking.next`).
    @discardableResult
    public func next() throws(PlayerRanking.PinError) -> ActivePlayer {
        let at = now()
        let chosen = try state.withLock { state throws(PlayerRanking.PinError) in try state.ranking.next(at: at) }
        log("pinned \(chosen.busName) (next)")
        announce()
        return chosen
    }

    /// Tells the handlers if the active player changed since the last announcement. Every change
    /// of the ranking passes here, so the streams' deadlines are settled first: the players due
    /// leave their context, and the timer follows the earliest deadline left.
    func announce() {
        settleStreams()
        announcing.withLock { _ in
            let (active, handlers) = state.withLock { state -> (ActivePlayer??, [@Sendable (ActivePlayer?) -> Void]) in
                let active = state.ranking.active
                guard active != state.announced else { return (nil, []) }
                state.announced = active
                return (.some(active), Array(state.handlers.values))
            }
            guard let active else { return }
            log("active player: \(active.map { "\($0.busName) (\($0.owner))" } ?? "none")")
            for handler in handlers { handler(active) }
        }
    }

    // MARK: Life

    /// Starts ranking the directory's players (and starts the directory, if no other reader did);
    /// `completion` runs once the players there now are being read.
    public func start(completion: @escaping @Sendable (Result<Void, DBusError>) -> Void = { _ in }) {
        let allowed = state.withLock { state -> Bool in
            guard state.phase == .created else { return false }
            state.phase = .running
            return true
        }
        guard allowed else { return completion(.failure(.failed("the player arbiter was already started"))) }
        directory.attach({ [weak self] in self?.directoryEvent($0) },
                         keep: { [weak self] observation in self?.keepWhileRunning(observation) ?? false },
                         completion: completion)
    }

    private func keepWhileRunning(_ observation: EventSubscription) -> Bool {
        state.withLock { state in
            guard state.phase == .running else { return false }
            state.observation = observation
            return true
        }
    }

    /// Stops ranking; the active player becomes none. The directory goes on for its other readers.
    public func stop() {
        let (observation, names) = state.withLock { state -> (EventSubscription?, [String]) in
            state.phase = .stopped
            defer {
                state.followed.removeAll()
                state.observation = nil
            }
            return (state.observation, Array(state.followed.keys))
        }
        observation?.cancel()
        state.withLock { state in for name in names { state.ranking.vanished(name) } }
        announce()
    }
}
