import DBus
import SessionCore
import Synchronization

/// An audio session kept by the policy daemon on behalf of this process: the remote counterpart
/// of SessionCore's `AudioSession`, with the same configuration, activation and events.
///
/// Created by `PolicyClient.register`. Releasing it (or `unregister`) removes it from the daemon,
/// which undoes everything it caused. Methods block for one round trip (see `PolicyClient`).
public final class RemoteSession: Sendable {
    public let client: PolicyClient
    let key: UInt64

    private struct Handlers {
        var next: UInt64 = 0
        var all: [(token: UInt64, handler: @Sendable (SessionEvent) -> Void)] = []
    }

    private let handlers = Mutex(Handlers())

    /// What the events told of the session: the interruption state and the route.
    private struct Observed {
        var isInterrupted = false
        var route = AudioRoute.none
    }

    private let observed = Mutex(Observed())

    init(client: PolicyClient, key: UInt64) {
        self.client = client
        self.key = key
    }

    deinit {
        unregister()
    }

    // MARK: State as the client knows it

    private var record: RemoteRecord? { client.state.withLock { $0.records[key] } }

    /// The session's object on the current daemon; nil while the daemon is gone.
    public var path: ObjectPath? { record?.path }
    /// The configuration last set (what a restarted daemon gets).
    public var configuration: SessionConfiguration { record?.configuration ?? SessionConfiguration() }
    /// The display name.
    public var name: String { record?.name ?? "" }
    /// Active as far as this process knows: activated and not since deactivated, interrupted or
    /// lost with the daemon.
    public var isActive: Bool { record?.isActive ?? false }

    // MARK: Requests

    /// Sets category, mode and options (and the display name if given). An option that does not
    /// fit the category is `badParam(.optionNotAllowed)`, checked here before anything is sent.
    public func setConfiguration(_ configuration: SessionConfiguration, name: String? = nil) throws(SessionError) {
        _ = try configuration.validated()
        try invoke("SetConfiguration", [PolicyWire.encodeConfiguration(configuration, name: name)])
        client.state.withLock { state in
            state.records[key]?.configuration = configuration
            if let name { state.records[key]?.name = name }
        }
    }

    /// `setConfiguration` in `AudioSession.setCategory`'s shape.
    public func setCategory(_ category: SessionCategory, mode: SessionMode = .default,
                            options: SessionOptions = []) throws(SessionError) {
        try setConfiguration(SessionConfiguration(category, mode: mode, options: options))
    }

    /// Activates the session (`allowDelayedActivation`: queue behind a call instead of failing).
    @discardableResult
    public func activate(_ options: ActivationOptions = []) throws(SessionError) -> ActivationResult {
        if options.contains(.notifyOthersOnDeactivation) {
            throw .badParam(.optionNotValidHere(.notifyOthersOnDeactivation))
        }
        let delayable = options.contains(.allowDelayedActivation)
        try invoke("Activate", [PolicyWire.dictionary(delayable ? [(PolicyWire.ActivationKey.allowDelayedActivation,
                                                                  .boolean(true))] : [])])
        var result = ActivationResult.active
        if delayable, case .boolean(false)? = try? readProperty("Active") { result = .delayed }
        client.state.withLock { $0.records[key]?.isActive = result == .active }
        return result
    }

    /// Deactivates the session; `notifyOthers` lets the sessions it interrupted resume. `isBusy`
    /// (I/O still running) is thrown after deactivating.
    public func deactivate(notifyOthers: Bool = false) throws(SessionError) {
        defer { client.state.withLock { $0.records[key]?.isActive = false } }
        try invoke("Deactivate", [PolicyWire.dictionary(notifyOthers ? [(PolicyWire.ActivationKey.notifyOthers,
                                                                        .boolean(true))] : [])])
    }

    /// `activate`/`deactivate` in `AudioSession.setActive`'s shape.
    @discardableResult
    public func setActive(_ active: Bool, options: ActivationOptions = []) throws(SessionError) -> ActivationResult {
        if active { return try activate(options) }
        if options.contains(.allowDelayedActivation) {
            throw .badParam(.optionNotValidHere(.allowDelayedActivation))
        }
        try deactivate(notifyOthers: options.contains(.notifyOthersOnDeactivation))
        return .inactive
    }

    /// Tells the daemon whether the session's audio I/O runs.
    public func setIORunning(_ running: Bool) throws(SessionError) {
        try invoke("SetIORunning", [.boolean(running)])
    }

    /// Removes the session from the daemon (without waiting) and forgets it. Idempotent.
    public func unregister() {
        let (daemon, path) = client.state.withLock { state -> (String?, ObjectPath?) in
            guard let record = state.records.removeValue(forKey: key) else { return (nil, nil) }
            if let path = record.path { state.keys[path] = nil }
            return (state.daemon, record.path)
        }
        guard let daemon, let path else { return }
        client.connection.call(.methodCall(destination: daemon, path: path, interface: AudioPolicyNames.sessionInterface,
                                           member: "Unregister", body: [])) { _ in }
    }

    // MARK: Events

    /// Calls `handler` for every event, in order, on the client's event thread (it may call this
    /// session's methods). Keep the subscription: releasing it cancels.
    public func onEvent(_ handler: @escaping @Sendable (SessionEvent) -> Void) -> EventSubscription {
        let token = handlers.withLock { handlers in
            handlers.next += 1
            handlers.all.append((handlers.next, handler))
            return handlers.next
        }
        return EventSubscription { [weak self] in
            self?.handlers.withLock { $0.all.removeAll { $0.token == token } }
        }
    }

    /// On the event thread.
    func dispatch(_ event: SessionEvent) {
        observed.withLock { observed in
            switch event {
            case .interruption(.began): observed.isInterrupted = true
            case .interruption(.ended), .mediaServicesLost, .mediaServicesReset: observed.isInterrupted = false
            case .routeChange(let change): observed.route = change.currentRoute
            default: break
            }
        }
        let current = handlers.withLock { $0.all.map(\.handler) }
        for handler in current { handler(event) }
    }

    // MARK: Plumbing

    @discardableResult
    private func invoke(_ member: String, _ body: [DBusValue]) throws(SessionError) -> Message {
        let (daemon, path) = client.state.withLock { ($0.daemon, $0.records[key]?.path) }
        guard let daemon, let path else { throw .mediaServicesFailed }
        return try client.call(daemon, path, AudioPolicyNames.sessionInterface, member, body,
                               fallback: .unknownSession(SessionID(rawValue: Self.number(path))))
    }

    private func readProperty(_ name: String) throws(SessionError) -> DBusValue {
        let (daemon, path) = client.state.withLock { ($0.daemon, $0.records[key]?.path) }
        guard let daemon, let path else { throw .mediaServicesFailed }
        let reply = try client.call(daemon, path, StandardInterfaceName.properties, "Get",
                                    [.string(AudioPolicyNames.sessionInterface), .string(name)])
        guard case .variant(let value)? = reply.body.first else { throw .mediaServicesFailed }
        return value
    }

    /// The daemon's session number: the last element of its path.
    static func number(_ path: ObjectPath) -> UInt64 {
        path.elements.last.flatMap { UInt64($0) } ?? 0
    }
}

extension RemoteSession: AudioSessionHandle {
    /// Whether an interruption began and has not ended (as the session's events told).
    public var isInterrupted: Bool { observed.withLock { $0.isInterrupted } }

    /// The route the last route change reported (`.none` until one arrives). Ports other than the
    /// speaker and the built-in mic carry their ids, not their types (the signal carries ids only).
    public var currentRoute: AudioRoute { observed.withLock { $0.route } }

    public func configure(_ configuration: SessionConfiguration) throws(SessionError) {
        try setConfiguration(configuration)
    }

    /// The daemon grants record permission at registration (a desktop has no prompt).
    @discardableResult
    public func requestRecordPermission() -> RecordPermission { .granted }
}
