import AudioPolicyClient
import DBus
import Posix
import SessionCore
import Synchronization

/// The policy daemon's D-Bus face (docs/audio-policy-api.md): `/org/mprisd/AudioPolicy` with
/// `org.mprisd.AudioPolicy1`, and one `/org/mprisd/AudioPolicy/session/N` with
/// `org.mprisd.AudioSession1` per registered session, all on top of one `AudioSystem`.
///
/// Every rule is SessionCore's; this only carries requests in and events out:
/// - A session belongs to the unique name that registered it. Its methods answer that name only
///   (anyone else: `AccessDenied`); its events are signals sent to that name only (unicast).
/// - When the owner's name vanishes (`NameOwnerChanged`) its sessions are removed at once, which
///   undoes their ducking and interruptions in the engine.
/// - One log line per decision (registration, activation, denial, each event delivered).
///
/// It does not own `org.mprisd.AudioPolicy`: the caller requests the name after `start`, so that
/// a clash is reported where the daemon's command line is.
///
/// Threads: no Swift concurrency, no timer. Calls are handled on the connection's I/O thread
/// without blocking; events are emitted on whichever thread made the engine's decision.
public final class PolicyService: Sendable {
    public typealias Log = @Sendable (String) -> Void

    public let connection: Connection
    public let system: AudioSystem
    /// The `Version` property.
    public let version: String
    let log: Log
    /// The daemon's one list of sessions (`SessionDirectory`).
    public let sessions: SessionDirectory
    let applySilentMode: @Sendable (Bool) -> Void
    let applyRouteOverride: @Sendable (String?) throws(SessionError) -> Void
    let statusExtras: @Sendable (inout PolicyStatus) -> Void

    struct State {
        var started = false
        var closed = false
        var sessions: [UInt64: ServedSession] = [:]
        /// How many sessions each owner has registered (`PolicyLimits.sessionsPerOwner`), counted
        /// from the moment a registration is accepted until its session is removed.
        var sessionCounts: [String: Int] = [:]
        var policyObject: ExportedObject?
        var ownerWatch: SignalSubscription?
        var conditionsWatch: EventSubscription?
    }

    let state = Mutex(State())
    /// The foreign players the daemon follows (`follow`), held weakly: the tracker's closures
    /// hold this service.
    private let foreignPlayers = Mutex(WeakPlayers())

    private struct WeakPlayers {
        weak var tracker: ForeignPlayerTracker?
    }

    /// The stream policy (`follow(streams:)`), held weakly like the players.
    let streamFollower = Mutex(WeakStreams())

    struct WeakStreams {
        weak var policy: StreamPolicy?
    }

    /// The player arbiter (`follow(arbiter:)`, issue 16), held weakly like the players.
    let playerArbiter = Mutex(WeakArbiter())

    /// A service for `system` on `connection`; nothing is exported until `start`.
    ///
    /// - Parameters:
    ///   - log: receives one line per decision.
    ///   - setSilentMode: what `SetSilentMode` does (the daemon persists the setting); by default
    ///     it only tells the system.
    ///   - setRouteOverride: what `SetRouteOverride` does (nil: automatic); by default it only
    ///     tells the system.
    ///   - statusExtras: adds what other parts of the daemon know to `GetStatus`; runs on the
    ///     I/O thread and must not block.
    ///   - sessions: the daemon's one list of sessions, where each served session is entered
    ///     (and numbered) beside the players' and the implicit ones.
    public init(connection: Connection, system: AudioSystem, version: String = "1",
                sessions: SessionDirectory = SessionDirectory(),
                log: @escaping Log,
                setSilentMode: (@Sendable (Bool) -> Void)? = nil,
                setRouteOverride: (@Sendable (String?) throws(SessionError) -> Void)? = nil,
                statusExtras: @escaping @Sendable (inout PolicyStatus) -> Void = { _ in }) {
        self.connection = connection
        self.system = system
        self.version = version
        self.sessions = sessions
        self.log = log
        applySilentMode = setSilentMode ?? { system.setSilentMode($0) }
        if let setRouteOverride {
            applyRouteOverride = setRouteOverride
        } else {
            applyRouteOverride = { portID throws(SessionError) in try system.setRouteOverride(portID) }
        }
        self.statusExtras = statusExtras
    }

    deinit {
        close()
    }

    /// Exports the policy object and follows vanishing unique names; returns once both are in
    /// place, so a client that registers after the name is requested can never be missed when it
    /// goes. Blocks: call it from the daemon's main thread, never from a connection's I/O thread.
    public func start() throws(DBusError) {
        let first = state.withLock { state -> Bool in
            defer { state.started = true }
            return !state.started && !state.closed
        }
        guard first else { throw DBusError.failed("the policy service was already started or is closed") }
        let object = try connection.export(AudioPolicyNames.objectPath,
                                           interfaces: [policyInterface()])
        // Every change of the conditions, whoever made it, is announced from this one place.
        let conditionsWatch = system.onConditionsChange { [weak self] _ in self?.announceConditions() }
        state.withLock { state in
            state.policyObject = object
            state.conditionsWatch = conditionsWatch
        }
        // Only unique names losing their owner (arg2 empty) wake the daemon.
        let rule = MatchRule(sender: BusDaemon.name, interface: BusDaemon.interface,
                             member: "NameOwnerChanged", path: BusDaemon.path,
                             arguments: [2: ""])
        let done = Latch<Result<SignalSubscription, DBusError>>()
        connection.subscribe(rule, { [weak self] signal in self?.nameOwnerChanged(signal) },
                             completion: { done.open(with: $0) })
        let subscription = try done.wait().get()
        let kept = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.ownerWatch = subscription
            return true
        }
        if !kept {
            subscription.cancel()
            throw DBusError.failed("the policy service was closed while starting")
        }
    }

    /// Withdraws everything: every session is removed (as if its owner had gone) and the policy
    /// object is unexported. Idempotent.
    public func close() {
        let (served, object, watch, conditionsWatch) = state.withLock { state in
            state.closed = true
            defer {
                state.sessions = [:]
                state.sessionCounts = [:]
                state.policyObject = nil
                state.ownerWatch = nil
                state.conditionsWatch = nil
            }
            return (Array(state.sessions.values), state.policyObject, state.ownerWatch, state.conditionsWatch)
        }
        conditionsWatch?.cancel()
        watch?.cancel()
        for session in served.sorted(by: { $0.number < $1.number }) {
            sessions.remove(session.session.id)
            session.detach()
            followedStreams?.release(session.number)
        }
        object?.unexport()
        // `served` goes here, outside the lock: the engine undoes their effects now.
    }

    /// Whether `uniqueName` owns at least one session (the foreign-player tracker leaves such
    /// processes alone: they speak to the daemon themselves).
    public func ownsSessions(_ uniqueName: String) -> Bool {
        state.withLock { $0.sessionCounts[uniqueName] != nil }
    }

    /// The unique names that own sessions now.
    public var sessionOwners: Set<String> {
        state.withLock { Set($0.sessions.values.map(\.owner)) }
    }

    /// Announces `SilentMode`, `Locked`, `OutputVolume` and `RouteOverride` after the system's
    /// conditions changed (only those whose value differs from the last announcement are sent).
    private func announceConditions() {
        state.withLock { $0.policyObject }?.propertiesChanged(
            AudioPolicyNames.interface, ["SilentMode", "Locked", "OutputVolume", "RouteOverride"])
    }

    // MARK: Sessions

    /// The served session `number`, if it is still registered.
    func served(_ number: UInt64) -> ServedSession? {
        state.withLock { $0.sessions[number] }
    }

    /// Works with the tracker of ordinary MPRIS players: the log names the interrupters it
    /// knows, the status lists its players, and it hears of each registration (it stops treating
    /// that process's MPRIS names as foreign).
    public func follow(_ players: ForeignPlayerTracker) {
        foreignPlayers.withLock { $0.tracker = players }
    }

    /// The tracker given to `follow`, while it exists.
    var followedPlayers: ForeignPlayerTracker? {
        foreignPlayers.withLock { $0.tracker }
    }

    /// Removes a session: its events stop, its object goes and, when the last reference is
    /// dropped here outside the lock, the engine undoes its effects (others get *ended*).
    func remove(_ number: UInt64, because reason: String) {
        guard let served = state.withLock({ state -> ServedSession? in
            guard let served = state.sessions.removeValue(forKey: number) else { return nil }
            state.releaseSlot(of: served.owner)
            return served
        }) else { return }
        sessions.remove(served.session.id)
        served.detach()
        followedStreams?.release(number)
        log("\(served.label) removed: \(reason)")
    }

    /// Takes one of `owner`'s `PolicyLimits.sessionsPerOwner` places; nil when none is left.
    /// `releaseSlot` gives it back (the registration failed, or its session was removed).
    func takeSlot(for owner: String) -> UInt64? {
        state.withLock { state -> Bool in
            let count = state.sessionCounts[owner, default: 0]
            guard count < PolicyLimits.sessionsPerOwner else { return false }
            state.sessionCounts[owner] = count + 1
            return true
        } ? sessions.nextNumber() : nil
    }

    func releaseSlot(of owner: String) {
        state.withLock { $0.releaseSlot(of: owner) }
    }

    private func nameOwnerChanged(_ signal: Message) {
        guard signal.body.count == 3, case .string(let name) = signal.body[0], name.hasPrefix(":"),
              case .string(let newOwner) = signal.body[2], newOwner.isEmpty else { return }
        let numbers = state.withLock { state in
            state.sessions.values.filter { $0.owner == name }.map(\.number).sorted()
        }
        for number in numbers { remove(number, because: "its owner left the bus") }
    }
}

extension PolicyService.State {
    mutating func releaseSlot(of owner: String) {
        guard let count = sessionCounts[owner] else { return }
        sessionCounts[owner] = count > 1 ? count - 1 : nil
    }
}
