/// The policy engine: one deterministic arbiter over every session it knows — sessions of this
/// process and, behind the daemon, of other processes and foreign MPRIS players.
///
/// It is a value type with no I/O and no clock. Every mutating entry point returns the effects it
/// produced (`PolicyEffect`: a target session or a broadcast, and a `SessionEvent`); the caller
/// delivers them. Decisions cost at most O(active sessions + events emitted): the engine keeps the
/// active set split by role (non-mixing, duckers, spoken-audio interrupters, spoken audio) and each
/// interrupter's victims, looks sessions up by array index (`SessionTable`), and never scans
/// history or the registered set on activation or deactivation. Only a call's activation and a
/// change of the active duckers look at every active session. Route and media-services events
/// touch every registered session (each must hear them).
///
/// Rules: G-CALLS, G-CAT-*, G-INT-*, G-SILENT, G-HEADPHONES-*, G-ROUTE-PICK, G-VOLUME (see the
/// extensions in this folder).
public struct PolicyEngine: Sendable {
    var records = SessionTable()
    /// The system state (read-only outside; change it through the entry points).
    public internal(set) var conditions: SystemConditions
    /// Active sessions; order is deterministic (swap-remove on deactivation).
    var activeOrder: [SessionID] = []
    /// Active sessions with duckOthers.
    var duckers: [SessionID] = []
    /// Active non-mixing sessions (calls and audioProcessing included). Tiny: non-mixing
    /// activations interrupt each other, so there is at most one besides a call and a processor.
    var exclusives: [SessionID] = []
    /// Active sessions with interruptSpokenAudioAndMixWithOthers.
    var spokenInterrupters: [SessionID] = []
    /// Active sessions in spokenAudio mode.
    var activeSpoken: [SessionID] = []
    var activeCallCount = 0
    var activeOutputCount = 0
    /// The activation queued behind a call (at most one).
    var pending: [SessionID] = []
    /// Sessions currently ducked (as last reported).
    var ducked: [SessionID] = []
    /// Sessions that entered or left the active set since the last ducking reconciliation.
    var duckTouched: [SessionID] = []
    /// A ducker entered or left the active set since the last ducking reconciliation.
    var duckersChanged = false
    /// The primary session the secondary-audio hint was last reported for.
    var hintPrimary: SessionID?
    var suspendedVictims: [SessionID] = []
    var micVictims: [SessionID] = []
    var routeVictims: [SessionID] = []
    /// Sessions interrupted by the coming sleep, until the wake-up.
    var sleepVictims: [SessionID] = []
    /// Effects of the decision in progress.
    var effects: [PolicyEffect] = []

    /// An engine under `conditions` with no sessions.
    public init(conditions: SystemConditions = SystemConditions()) {
        self.conditions = conditions
    }

    // MARK: Registration

    /// Registers a session with the default configuration (soloAmbient) and returns its id.
    public mutating func register(recordPermission: RecordPermission = .undetermined) -> SessionID {
        let configuration = SessionConfiguration()
        return records.insert(SessionRecord(configuration: configuration, traits: SessionTraits(configuration),
                                            route: RouteSelection.route(for: configuration, in: conditions),
                                            recordPermission: recordPermission))
    }

    /// Registers a session with `configuration` (validated as in `configure`, G-CAT-OPTIONS).
    public mutating func register(_ configuration: SessionConfiguration,
                                  recordPermission: RecordPermission = .undetermined)
        throws(SessionError) -> SessionID {
        let validated = try configuration.validated()
        let id = register(recordPermission: recordPermission)
        records[id]?.configuration = validated.effective
        records[id]?.traits = SessionTraits(validated.effective)
        records[id]?.route = RouteSelection.route(for: validated.effective, in: conditions)
        return id
    }

    // MARK: Queries

    /// The ids of all registered sessions, ascending.
    public var sessionIDs: [SessionID] { records.ids }

    /// The active sessions (deterministic order).
    public var activeSessions: [SessionID] { activeOrder }

    /// The activation queued behind a call (empty or one session).
    public var pendingActivations: [SessionID] { pending }

    /// A snapshot of session `id`, or nil if unknown.
    public func session(_ id: SessionID) -> SessionSnapshot? {
        guard let record = records[id] else { return nil }
        return SessionSnapshot(id: id, configuration: record.configuration, isActive: record.isActive,
                               interruptedBy: record.heldBy, isDucked: record.isDucked,
                               isActivationPending: record.isPending, route: record.route,
                               recordPermission: record.recordPermission,
                               isIORunning: record.isIORunning, isInBackground: record.isInBackground)
    }

    /// Whether audio other than session `id`'s is playing (field notes, isOtherAudioPlaying; the
    /// game's launch check of G-SCN-GAME).
    public func isOtherAudioPlaying(for id: SessionID) -> Bool {
        let own = records[id].map { $0.isActive && $0.traits.hasOutput } ?? false
        return activeOutputCount - (own ? 1 : 0) > 0
    }

    /// Whether another session's primary (non-mixing) audio plays, so secondary audio such as a
    /// game soundtrack should be silenced (field notes; G-APP-GAME).
    public func secondaryAudioShouldBeSilencedHint(for id: SessionID) -> Bool {
        guard let primary = hintPrimary else { return false }
        return primary != id
    }

    /// Whether session `id` is silenced by silent mode (G-SILENT: ambient/soloAmbient only).
    public func isSilenced(_ id: SessionID) -> Bool {
        guard let record = records[id] else { return false }
        return conditions.isSilentMode && record.traits.isSilencedBySilentModeAndLock
    }

    // MARK: Bookkeeping

    mutating func emit(_ target: SessionID, _ event: SessionEvent) {
        effects.append(.to(target, event))
    }

    mutating func takeEffects() -> [PolicyEffect] {
        defer { effects.removeAll(keepingCapacity: true) }
        return effects
    }

    /// Adds `id` to the active set and its counters.
    mutating func enterActive(_ id: SessionID) {
        guard let traits = records[id]?.traits, records[id]?.activeIndex == nil else { return }
        records[id]?.activeIndex = activeOrder.count
        activeOrder.append(id)
        if traits.isCall { activeCallCount += 1 }
        if traits.hasOutput { activeOutputCount += 1 }
        if traits.ducksOthers {
            duckers.append(id)
            duckersChanged = true
        }
        if !traits.isMixable { exclusives.append(id) }
        if traits.interruptsSpokenAudio { spokenInterrupters.append(id) }
        if traits.isSpokenAudio { activeSpoken.append(id) }
        duckTouched.append(id)
    }

    /// Removes `id` from the active set and its counters (I/O state untouched).
    mutating func leaveActive(_ id: SessionID) {
        guard let traits = records[id]?.traits, let index = records[id]?.activeIndex else { return }
        let last = activeOrder.removeLast()
        if last != id {
            activeOrder[index] = last
            records[last]?.activeIndex = index
        }
        records[id]?.activeIndex = nil
        if traits.isCall { activeCallCount -= 1 }
        if traits.hasOutput { activeOutputCount -= 1 }
        if traits.ducksOthers, let at = duckers.firstIndex(of: id) {
            duckers.remove(at: at)
            duckersChanged = true
        }
        duckTouched.append(id)
        if !traits.isMixable { Self.drop(id, from: &exclusives) }
        if traits.interruptsSpokenAudio { Self.drop(id, from: &spokenInterrupters) }
        if traits.isSpokenAudio { Self.drop(id, from: &activeSpoken) }
    }

    private static func drop(_ id: SessionID, from list: inout [SessionID]) {
        if let at = list.firstIndex(of: id) { list.remove(at: at) }
    }

    /// Makes `id` inactive; its I/O stops with it.
    mutating func markInactive(_ id: SessionID) {
        leaveActive(id)
        records[id]?.isIORunning = false
    }
}
