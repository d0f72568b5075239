import Synchronization

/// The in-process host of a `PolicyEngine`: it owns the engine behind a lock, creates
/// `AudioSession`s and delivers the engine's effects to their streams and callbacks, in decision
/// order and outside the lock (a callback may call back into the session).
///
/// The system inputs (lock, silent mode, ports, volume, mic mute) come from whoever observes the
/// machine: the daemon's monitors, or a test. Apps never set the volume (G-VOLUME).
///
/// Delivery: every subscriber sees events in decision order. Used from one thread, a call's
/// events have been delivered when it returns; under concurrent use the thread already
/// delivering may deliver them shortly after.
public final class AudioSystem: Sendable {
    struct Host {
        var engine: PolicyEngine
        var hubs: [SessionID: EventHub] = [:]
        var outbox: [(EventHub, SessionEvent)] = []
        var isDraining = false
    }

    let host: Mutex<Host>
    let recordPermissionDecider: @Sendable (SessionID) -> RecordPermission

    /// A system under `conditions`. `recordPermissionDecider` answers
    /// `AudioSession.requestRecordPermission()` for sessions whose permission is undetermined
    /// (a desktop has no prompt by default: grant).
    public init(conditions: SystemConditions = SystemConditions(),
                recordPermissionDecider: @escaping @Sendable (SessionID) -> RecordPermission = { _ in .granted }) {
        host = Mutex(Host(engine: PolicyEngine(conditions: conditions)))
        self.recordPermissionDecider = recordPermissionDecider
    }

    /// A new session with `configuration` (G-APP-GAME: set the category before the launch screen).
    public func makeSession(_ configuration: SessionConfiguration = SessionConfiguration())
        throws(SessionError) -> AudioSession {
        let result: Result<(SessionID, EventHub), SessionError> = host.withLock { host in
            do throws(SessionError) {
                let id = try host.engine.register(configuration)
                let hub = EventHub()
                host.hubs[id] = hub
                return .success((id, hub))
            } catch {
                return .failure(error)
            }
        }
        let (id, hub) = try result.get()
        return AudioSession(id: id, system: self, hub: hub)
    }

    /// A copy of the engine, for status output and tests.
    public var engine: PolicyEngine { host.withLock { $0.engine } }

    /// The current system conditions.
    public var conditions: SystemConditions { host.withLock { $0.engine.conditions } }

    // MARK: System inputs (daemon monitors, tests)

    /// Screen lock changed (G-SILENT). See `PolicyEngine.setLocked`.
    public func setLocked(_ locked: Bool) { apply { $0.setLocked(locked) } }
    /// Silent mode changed (G-SILENT).
    public func setSilentMode(_ silent: Bool) { apply { $0.setSilentMode(silent) } }
    /// The observed system output volume changed (G-VOLUME).
    public func setOutputVolume(_ volume: Double) throws(SessionError) {
        try perform { engine throws(SessionError) in ((), try engine.setOutputVolume(volume)) }
    }
    /// The built-in mic was muted/unmuted by hardware (G-INT-MIC).
    public func setBuiltInMicMuted(_ muted: Bool) { apply { $0.setBuiltInMicMuted(muted) } }
    /// Ports appeared (G-HEADPHONES-IN).
    public func connect(_ ports: [AudioPort]) { apply { $0.connect(ports) } }
    /// Ports went away (G-HEADPHONES-OUT).
    public func disconnect(_ portIDs: [String]) { apply { $0.disconnect(portIDs) } }
    /// The user picked a route, or nil for automatic (G-ROUTE-PICK).
    public func setRouteOverride(_ portID: String?) throws(SessionError) {
        try perform { engine throws(SessionError) in ((), try engine.setRouteOverride(portID)) }
    }
    /// wakeFromSleep, routeConfigurationChange or unknown.
    public func reportRouteEvent(_ reason: RouteChangeReason) throws(SessionError) {
        try perform { engine throws(SessionError) in ((), try engine.reportRouteEvent(reason)) }
    }
    /// Media services lost (every session inactive until reset).
    public func mediaServicesLost() { apply { $0.mediaServicesLost() } }
    /// Media services reset: sessions rebuild.
    public func mediaServicesReset() { apply { $0.mediaServicesReset() } }

    // MARK: Plumbing

    func apply(_ body: (inout PolicyEngine) -> [PolicyEffect]) {
        perform { engine in ((), body(&engine)) }
    }

    /// Runs `body` on the engine under the lock, queues its effects, and delivers them once the
    /// lock is released. A nested call (from a callback) only queues: the outermost caller drains,
    /// so every subscriber sees events in decision order.
    @discardableResult
    func perform<R: Sendable, E: Error>(_ body: (inout PolicyEngine) throws(E) -> (R, [PolicyEffect]))
        throws(E) -> R {
        let outcome: (Result<R, E>, Bool) = host.withLock { host in
            let result: Result<R, E>
            do throws(E) {
                let (value, effects) = try body(&host.engine)
                Self.enqueue(effects, into: &host)
                result = .success(value)
            } catch {
                result = .failure(error)
            }
            if host.isDraining || host.outbox.isEmpty { return (result, false) }
            host.isDraining = true
            return (result, true)
        }
        if outcome.1 { drain() }
        return try outcome.0.get()
    }

    private static func enqueue(_ effects: [PolicyEffect], into host: inout Host) {
        for effect in effects {
            switch effect.target {
            case .session(let id):
                if let hub = host.hubs[id] { host.outbox.append((hub, effect.event)) }
            case .everySession, .everySessionExcept:
                for id in host.hubs.keys.sorted() where effect.target.includes(id) {
                    if let hub = host.hubs[id] { host.outbox.append((hub, effect.event)) }
                }
            }
        }
    }

    private func drain() {
        while true {
            let batch: [(EventHub, SessionEvent)] = host.withLock { host in
                if host.outbox.isEmpty {
                    host.isDraining = false
                    return []
                }
                defer { host.outbox.removeAll(keepingCapacity: true) }
                return host.outbox
            }
            if batch.isEmpty { return }
            for (hub, event) in batch { hub.deliver(event) }
        }
    }

    /// Removes a session whose object went away (G-INT-KINDS pairing: its victims are released).
    func remove(_ id: SessionID) {
        let hub: EventHub? = host.withLock { $0.hubs.removeValue(forKey: id) }
        apply { $0.remove(id) }
        hub?.finish()
    }
}
