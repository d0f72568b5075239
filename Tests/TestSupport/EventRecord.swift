import Synchronization

/// What another process reported, in arrival order; a test waits for the entry it needs instead of
/// sleeping. Closing the record (the reporting process died) fails every waiter at once.
public final class EventRecord<Element: Sendable>: Sendable {
    private struct Waiter {
        let id: UInt64
        let isSatisfied: @Sendable ([Element]) -> Bool
        let continuation: CheckedContinuation<[Element], any Error>
    }

    private struct State {
        var elements: [Element] = []
        var waiters: [Waiter] = []
        var closed: String?
        var nextID: UInt64 = 0
    }

    private let state = Mutex<State>(State())

    public init() {}

    /// Everything recorded so far.
    public var elements: [Element] { state.withLock { $0.elements } }

    /// Adds `element` and wakes the waiters it satisfies.
    public func append(_ element: Element) {
        let woken: [(CheckedContinuation<[Element], any Error>, [Element])] = state.withLock { state in
            guard state.closed == nil else { return [] }
            state.elements.append(element)
            let snapshot = state.elements
            var woken: [(CheckedContinuation<[Element], any Error>, [Element])] = []
            state.waiters.removeAll { waiter in
                guard waiter.isSatisfied(snapshot) else { return false }
                woken.append((waiter.continuation, snapshot))
                return true
            }
            return woken
        }
        for (continuation, snapshot) in woken { continuation.resume(returning: snapshot) }
    }

    /// Ends the record: current and future waiters fail with `reason` (the first reason wins).
    public func close(_ reason: String) {
        let waiters: [Waiter] = state.withLock { state in
            guard state.closed == nil else { return [] }
            state.closed = reason
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.continuation.resume(throwing: TestSupportError(reason)) }
    }

    /// Waits until `match` finds something in the record (checked at once, then after every
    /// append) and returns it.
    /// - Throws: `TestSupportError` naming `what` after `timeout`, or the reason the record was closed.
    @discardableResult
    public func wait<T>(for what: String, timeout: Duration = .seconds(10),
                        _ match: @escaping @Sendable ([Element]) -> T?) async throws -> T {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        let timer = Task { [weak self] in
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            self?.expire(id, TestSupportError("timed out after \(timeout) waiting for \(what)"))
        }
        defer { timer.cancel() }
        let snapshot = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[Element], any Error>) in
                let immediate: Result<[Element], any Error>? = state.withLock { state in
                    if match(state.elements) != nil { return .success(state.elements) }
                    if let reason = state.closed {
                        return .failure(TestSupportError("\(reason) (while waiting for \(what))"))
                    }
                    state.waiters.append(Waiter(id: id, isSatisfied: { match($0) != nil }, continuation: continuation))
                    return nil
                }
                if let immediate { continuation.resume(with: immediate) }
            }
        } onCancel: {
            self.expire(id, CancellationError())
        }
        guard let found = match(snapshot) else {
            throw TestSupportError("\(what): the match did not hold on the snapshot that satisfied it")
        }
        return found
    }

    private func expire(_ id: UInt64, _ error: any Error) {
        let waiter: Waiter? = state.withLock { state in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume(throwing: error)
    }
}
