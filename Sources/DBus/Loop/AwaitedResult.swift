import Synchronization

/// The result a completion on the I/O thread hands to a task suspended on a continuation.
///
/// It travels through a `Mutex`, and the continuation only wakes the task: ThreadSanitizer cannot
/// see the ordering the concurrency runtime gives a continuation resumed before its task got to
/// suspend (the runtime is not instrumented there), and would report every reply built on the I/O
/// thread and read by the task as a race. The lock makes the hand-over visible to it; it costs one
/// uncontended lock per call.
final class AwaitedResult<Value: Sendable>: Sendable {
    private let result = Mutex<Result<Value, DBusError>?>(nil)

    func store(_ outcome: Result<Value, DBusError>) {
        result.withLock { $0 = outcome }
    }

    /// The stored result (always stored before the continuation is resumed).
    func take() -> Result<Value, DBusError> {
        result.withLock { $0 } ?? .failure(.failed("the call ended without a result"))
    }
}
