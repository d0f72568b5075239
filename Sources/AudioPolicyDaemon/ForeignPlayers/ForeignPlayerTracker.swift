import AppClassification
import AudioPolicyClient
import DBus
import MPRISDirectory
import PolicyJournal
import SessionCore
import Synchronization

/// Treats every ordinary MPRIS player on the session bus (mpv with mpv-mpris, browsers, …) — a
/// program that knows nothing of audio sessions — as a non-mixable *playback* session that is
/// active while its `PlaybackStatus` is `Playing`.
///
/// The policy then reaches it through the only three things MPRIS lets us do to someone else's
/// player (`ForeignPlayerCommand`): interrupted → `Pause`; a resumable interruption ended and we
/// paused it → `Play`; ducked → a lower `Volume`, the exact prior value restored afterwards; its
/// output device went away → `Pause`. The rules themselves are in `ForeignPlayer`.
///
/// How it works, on the connection's I/O thread, without Swift concurrency, timers or polling:
/// - The players, their properties and identities come from the daemon's one `PlayerDirectory`
///   (ForeignPlayerTracker+Directory.swift); names whose owner `isOwnSession` (our own `mprisd
///   play`, which registers a session of its own) and proxies are left alone.
/// - Every call to a player is asynchronous with a timeout: a player that never answers costs a
///   log line, never a blocked thread. A player whose name goes (exit, crash) is dropped with its
///   session, which undoes everything that session caused to others.
///
/// Thread safety: state behind one lock that is never held while calling the policy engine (its
/// events come straight back here) or the bus.
public final class ForeignPlayerTracker: Sendable {
    public typealias OwnSessionCheck = @Sendable (String) -> Bool
    public typealias Log = @Sendable (String) -> Void

    let directory: PlayerDirectory
    /// The session bus (the directory's), where the commands go.
    let connection: Connection
    let system: AudioSystem
    let isOwnSession: OwnSessionCheck
    let log: Log
    /// The daemon's one list of sessions: each player's session is entered (and numbered)
    /// there, and who paused a player is looked up there (`SessionDirectory`).
    let sessions: SessionDirectory
    let journal: ChangeJournal?
    let state = Mutex(State())
    /// Held while a player's mode is decided and set (`applyMode`), so that a decision made later
    /// (new rules on another thread, a new track on the I/O thread) is also the one set last.
    /// Never taken inside `state`, nor by anything the engine calls back.
    let applyingMode = Mutex(())

    /// How long a player gets to answer any call.
    static let callTimeout: Duration = .seconds(5)

    /// One tracked name: the player and what stands for it in the policy engine.
    struct Tracked: Sendable {
        var player: ForeignPlayer
        /// Made once `GetAll` answered.
        var session: AudioSession?
        /// The session's number in the log and the status.
        var number: UInt64 = 0
        var events: EventSubscription?
        /// The mode its session is in (`PlayerMode`): spoken audio or plain playback.
        var mode = PlayerMode.plain
        /// A mode waiting for the player to start playing again (`applyMode`), once logged.
        var deferredMode: PlayerMode?
    }

    struct State {
        enum Phase { case created, running, stopped }

        var phase = Phase.created
        var tracked: [String: Tracked] = [:]
        /// Names left alone because their owner is one of our own sessions (name → owner).
        var ignored: [String: String] = [:]
        /// The directory's events, from `start` on.
        var observation: EventSubscription?
        /// Ducks the streams of players whose `Volume` cannot (`follow(streams:)`); weak: the
        /// daemon owns it.
        weak var streams: StreamPolicy?
        /// The players joined with their streams (`follow(streams:join:)`): which play streams now.
        var join: PlayerStreams?
        /// The user's `player` rules (`setRules`).
        var rules = AppRules()
    }

    /// A tracker of the players `directory` lists (on the session bus), as sessions of `system`.
    /// `isOwnSession` tells whether a unique name belongs to one of our own sessions; `log` gets
    /// one line per thing done to a player; `journal` (if any) gets every volume lowered and every
    /// pause that may be resumed, before the change is made. Nothing happens until `start`.
    public init(directory: PlayerDirectory, system: AudioSystem,
                isOwnSession: @escaping OwnSessionCheck, sessions: SessionDirectory = SessionDirectory(),
                journal: ChangeJournal? = nil, log: @escaping Log) {
        self.directory = directory
        connection = directory.connection
        self.system = system
        self.isOwnSession = isOwnSession
        self.sessions = sessions
        self.journal = journal
        self.log = log
    }

    deinit {
        stop()
    }

    /// The players tracked now (those whose properties have been read), by bus name.
    public var players: [PolicyStatus.Player] {
        state.withLock { state in
            state.tracked.values.compactMap { tracked -> PolicyStatus.Player? in
                guard tracked.session != nil else { return nil }
                let player = tracked.player
                return PolicyStatus.Player(busName: player.busName, owner: player.owner, status: player.statusText,
                                           session: tracked.number, pausedByPolicy: player.pausedByPolicy,
                                           ducked: player.duck != nil, mode: tracked.mode.sessionMode.rawValue,
                                           modeReason: tracked.mode.reason)
            }
        }.sorted { $0.busName < $1.busName }
    }

    /// Starts following the directory's players (and starts the directory, if no other reader
    /// did). `completion` runs (on the I/O thread) once the players that exist now are known and
    /// their properties are being read; it fails only when the bus refuses the directory's
    /// subscription or `stop` came first. Starts once; a stopped tracker stays stopped.
    public func start(completion: @escaping @Sendable (Result<Void, DBusError>) -> Void = { _ in }) {
        let allowed = state.withLock { state -> Bool in
            guard state.phase == .created else { return false }
            state.phase = .running
            return true
        }
        guard allowed else { return completion(.failure(.failed("the foreign player tracker was already started"))) }
        directory.attach({ [weak self] in self?.directoryEvent($0) }, keep: keep) { [weak self] result in
            completion(self == nil ? .failure(Self.stoppedError) : result)
        }
    }

    /// Stops following the players: every player's session is removed (undoing what it did to
    /// others), volumes we lowered are set back and pauses that were not final are resumed (a
    /// clean stop of the daemon undoes everything it did). The directory goes on for its other
    /// readers.
    public func stop() {
        let (tracked, observation) = state.withLock { state in
            state.phase = .stopped
            defer {
                state.tracked.removeAll()
                state.ignored.removeAll()
                state.observation = nil
            }
            return (Array(state.tracked.values), state.observation)
        }
        observation?.cancel()
        for entry in tracked { discard(entry, reason: nil, restoreVolume: true) }
    }

    static let stoppedError = DBusError.failed("the foreign player tracker was stopped while starting")

    /// Keeps the directory's subscription while running.
    private func keep(_ observation: EventSubscription) -> Bool {
        state.withLock { state in
            guard state.phase == .running else { return false }
            state.observation = observation
            return true
        }
    }
}

extension ForeignPlayerTracker {
    /// `owner` registered a session of its own after its players were found (a player that
    /// re-registers with a restarted daemon races the daemon's first look at the bus): its
    /// players are ours from now on — stop treating them as foreign, undoing any ducking.
    public func ownerRegistered(_ owner: String) {
        let dropped = state.withLock { state -> [Tracked] in
            let names = state.tracked.filter { $0.value.player.owner == owner }.map(\.key)
            var dropped: [Tracked] = []
            for name in names {
                if let tracked = state.tracked.removeValue(forKey: name) { dropped.append(tracked) }
                state.ignored[name] = owner
            }
            return dropped
        }
        for tracked in dropped {
            discard(tracked, reason: "\(owner) registered a session of its own", restoreVolume: true)
        }
    }
}
