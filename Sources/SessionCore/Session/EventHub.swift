import Synchronization

/// The subscribers of one session: async streams and callbacks, in subscription order.
final class EventHub: Sendable {
    struct Subscriber: Sendable {
        let token: UInt64
        let deliver: @Sendable (SessionEvent) -> Void
        let finish: @Sendable () -> Void
    }

    private struct State {
        var subscribers: [Subscriber] = []
        var nextToken: UInt64 = 0
        var isFinished = false
    }

    private let state = Mutex(State())

    /// Adds a subscriber; returns its token, or nil (after calling `finish`) if the hub is finished.
    func add(deliver: @escaping @Sendable (SessionEvent) -> Void,
             finish: @escaping @Sendable () -> Void) -> UInt64? {
        let token: UInt64? = state.withLock { state in
            if state.isFinished { return nil }
            state.nextToken += 1
            state.subscribers.append(Subscriber(token: state.nextToken, deliver: deliver, finish: finish))
            return state.nextToken
        }
        if token == nil { finish() }
        return token
    }

    func remove(_ token: UInt64) {
        state.withLock { $0.subscribers.removeAll { $0.token == token } }
    }

    /// Delivers `event` to every subscriber, outside the lock (a callback may subscribe or cancel).
    func deliver(_ event: SessionEvent) {
        let subscribers = state.withLock { $0.subscribers }
        for subscriber in subscribers { subscriber.deliver(event) }
    }

    /// Ends every stream; later subscriptions end at once.
    func finish() {
        let subscribers: [Subscriber] = state.withLock { state in
            state.isFinished = true
            defer { state.subscribers = [] }
            return state.subscribers
        }
        for subscriber in subscribers { subscriber.finish() }
    }

    /// An `AsyncStream` of the events `extract` maps to a value (unbounded: no event is dropped).
    func stream<Element: Sendable>(_ extract: @escaping @Sendable (SessionEvent) -> Element?)
        -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self,
                                                            bufferingPolicy: .unbounded)
        let token = add(deliver: { event in
            if let value = extract(event) { continuation.yield(value) }
        }, finish: { continuation.finish() })
        if let token {
            continuation.onTermination = { [weak self] _ in self?.remove(token) }
        }
        return stream
    }
}

/// A callback registration (`AudioSession.onEvent`); cancelled by `cancel()` or when released.
public final class EventSubscription: Sendable {
    private let cancelAction: Mutex<(@Sendable () -> Void)?>

    /// A subscription that runs `cancel` once (for other `AudioSessionHandle` implementations).
    public init(_ cancel: @escaping @Sendable () -> Void) {
        cancelAction = Mutex(cancel)
    }

    /// Stops the callbacks. Idempotent.
    public func cancel() {
        let action = cancelAction.withLock { action in
            defer { action = nil }
            return action
        }
        action?()
    }

    deinit { cancel() }
}
