import Synchronization

/// Fans one stream of values out to any number of callbacks and `AsyncStream`s.
///
/// Thread-safe; values are delivered on the caller of `publish` (the I/O thread), so callbacks
/// must return quickly.
final class Broadcaster<Value: Sendable>: Sendable {
    private enum Subscriber {
        case callback(@Sendable (Value) -> Void)
        case stream(AsyncStream<Value>.Continuation)
    }

    private struct State {
        var next: UInt64 = 0
        var subscribers: [UInt64: Subscriber] = [:]
        var finished = false
    }

    private let state = Mutex(State())

    /// Calls `handler` with every value published from now on; returns a token for `remove`.
    @discardableResult
    func add(_ handler: @escaping @Sendable (Value) -> Void) -> UInt64 {
        state.withLock { state in
            state.next += 1
            state.subscribers[state.next] = .callback(handler)
            return state.next
        }
    }

    /// A stream of every value published from now on; finishes when the broadcaster does.
    func stream() -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .unbounded)
        let id: UInt64? = state.withLock { state in
            guard !state.finished else { return nil }
            state.next += 1
            state.subscribers[state.next] = .stream(continuation)
            return state.next
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        return stream
    }

    func remove(_ id: UInt64) {
        _ = state.withLock { $0.subscribers.removeValue(forKey: id) }
    }

    func publish(_ value: Value) {
        let subscribers = state.withLock { Array($0.subscribers.values) }
        for subscriber in subscribers {
            switch subscriber {
            case .callback(let handler): handler(value)
            case .stream(let continuation): continuation.yield(value)
            }
        }
    }

    /// Ends every stream; later subscribers get a finished stream.
    func finish() {
        let subscribers = state.withLock { state in
            state.finished = true
            defer { state.subscribers.removeAll() }
            return Array(state.subscribers.values)
        }
        for case .stream(let continuation) in subscribers { continuation.finish() }
    }
}
