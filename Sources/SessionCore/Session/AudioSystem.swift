import Synchronization

/// The in-process host of a `PolicyEngine`: it owns the engine behind a lock, creates
/// `AudioSession`s and delivers the engine's effects to their streams and callbacks.
///
/// The system inputs (lock, silent mode, ports, volume, mic mute) come from whoever observes the
/// machine: the daemon's monitors, or a test. Apps never set the volume (G-VOLUME).
///
/// Delivery: events are delivered on the system's one event thread (`session-events`), never
/// inside the call that caused them. A handler may therefore take a lock its app holds around
/// `setActive` (it waits for the caller to let go), and call back into any session. Every
/// subscriber sees events in decision order: a session's events arrive in the order the engine
/// produced them, across all threads that call the system. `waitForDelivery()` blocks until
/// everything decided so far has been delivered.
public final class AudioSystem: Sendable {
    struct Host {
        var engine: PolicyEngine
        var hubs: [SessionID: EventHub] = [:]
        var conditionObservers: [UInt64: @Sendable (SystemConditions) -> Void] = [:]
        var nextObserver: UInt64 = 0
    }

    let host: Mutex<Host>
    let recordPermissionDecider: @Sendable (SessionID) -> RecordPermission
    private let delivery = EventDelivery()

    /// A system under `conditions`. `recordPermissionDecider` answers
    /// `AudioSession.requestRecordPermission()` for sessions whose permission is undetermined
    /// (a desktop has no prompt by default: grant).
    public init(conditions: SystemConditions = SystemConditions(),
                recordPermissionDecider: @escaping @Sendable (SessionID) -> RecordPermission = { _ in .granted }) {
        host = Mutex(Host(engine: PolicyEngine(conditions: conditions)))
        self.recordPermissionDecider = recordPermissionDecider
    }

    deinit { delivery.stop() }

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

    /// Calls `handler` with the new conditions each time a change of the system's inputs changed
    /// them, on the event thread, after the sessions' events of the same decision. One place
    /// hears of every change, whoever made it (a monitor, a setting, a D-Bus call): the daemon
    /// announces its properties from here.
    public func onConditionsChange(_ handler: @escaping @Sendable (SystemConditions) -> Void) -> EventSubscription {
        let token = host.withLock { host in
            host.nextObserver += 1
            host.conditionObservers[host.nextObserver] = handler
            return host.nextObserver
        }
        return EventSubscription { [weak self] in
            _ = self?.host.withLock { $0.conditionObservers.removeValue(forKey: token) }
        }
    }

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
    public func disconnect(_ portIDs: [String], scope: DeviceLossScope = .everySession) {
        apply { $0.disconnect(portIDs, scope: scope) }
    }
    /// `sessions` lost their output `lost` (G-HEADPHONES-OUT, decided per stream).
    public func reportDeviceLoss(_ lost: [AudioPort], of sessions: [SessionID]) {
        apply { $0.reportDeviceLoss(lost, of: sessions) }
    }
    /// The user picked a route, or nil for automatic (G-ROUTE-PICK).
    public func setRouteOverride(_ portID: String?) throws(SessionError) {
        try perform { engine throws(SessionError) in ((), try engine.setRouteOverride(portID)) }
    }
    /// wakeFromSleep, routeConfigurationChange or unknown.
    public func reportRouteEvent(_ reason: RouteChangeReason) throws(SessionError) {
        try perform { engine throws(SessionError) in ((), try engine.reportRouteEvent(reason)) }
    }
    /// The system is about to sleep: every playing session but `spared` is interrupted without
    /// resume (see `PolicyEngine.prepareForSleep`).
    public func prepareForSleep(sparing spared: Set<SessionID> = []) { apply { $0.prepareForSleep(sparing: spared) } }
    /// The system woke up: the sleep's interruptions end without shouldResume.
    public func wokeFromSleep() { apply { $0.wokeFromSleep() } }
    /// Media services lost (every session inactive until reset).
    public func mediaServicesLost() { apply { $0.mediaServicesLost() } }
    /// Media services reset: sessions rebuild.
    public func mediaServicesReset() { apply { $0.mediaServicesReset() } }

    // MARK: Plumbing

    func apply(_ body: (inout PolicyEngine) -> [PolicyEffect]) {
        perform { engine in ((), body(&engine)) }
    }

    /// Runs `body` on the engine under the lock and queues its effects for the event thread, in
    /// decision order (queued under the same lock that made the decision).
    @discardableResult
    func perform<R: Sendable, E: Error>(_ body: (inout PolicyEngine) throws(E) -> (R, [PolicyEffect]))
        throws(E) -> R {
        let result: Result<R, E> = host.withLock { host in
            do throws(E) {
                let before = host.engine.conditions
                let (value, effects) = try body(&host.engine)
                delivery.enqueue(Self.addressed(effects, in: host) + Self.observed(from: before, in: host))
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        delivery.deliverInlineIfNeeded()
        return try result.get()
    }

    /// Blocks until every event decided so far, and every event their handlers caused meanwhile,
    /// has been delivered (tests; a program that must not go on before its sessions heard of a
    /// change). From a handler, it returns at once: the event thread cannot wait for itself.
    public func waitForDelivery() {
        delivery.waitUntilDelivered()
    }

    private static func addressed(_ effects: [PolicyEffect], in host: Host) -> [EventDelivery.Item] {
        var items: [EventDelivery.Item] = []
        for effect in effects {
            switch effect.target {
            case .session(let id):
                if let hub = host.hubs[id] { items.append(.event(hub, effect.event)) }
            case .everySession, .everySessionExcept:
                for id in host.hubs.keys.sorted() where effect.target.includes(id) {
                    if let hub = host.hubs[id] { items.append(.event(hub, effect.event)) }
                }
            }
        }
        return items
    }

    /// The observers' calls when the conditions differ from `before`, in subscription order.
    private static func observed(from before: SystemConditions, in host: Host) -> [EventDelivery.Item] {
        let after = host.engine.conditions
        guard after != before else { return [] }
        return host.conditionObservers.keys.sorted().compactMap { token in
            host.conditionObservers[token].map { .conditions($0, after) }
        }
    }

    /// Removes a session whose object went away (G-INT-KINDS pairing: its victims are released).
    /// Its streams end behind the events already queued for it.
    func remove(_ id: SessionID) {
        host.withLock { host in
            let hub = host.hubs.removeValue(forKey: id)
            let effects = host.engine.remove(id)
            delivery.enqueue(Self.addressed(effects, in: host) + (hub.map { [.finish($0)] } ?? []))
        }
        delivery.deliverInlineIfNeeded()
    }
}
