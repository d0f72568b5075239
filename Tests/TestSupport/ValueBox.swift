import Synchronization

/// The tests' one box: a value behind a `Mutex`, shared between a test and the closures another
/// thread runs (a connection's I/O thread, an event thread). A class, so that closures capture the
/// box itself (a `Mutex` cannot be captured or copied).
public final class ValueBox<Value: Sendable>: Sendable {
    public let value: Mutex<Value>

    public init(_ initial: sending Value) {
        value = Mutex(initial)
    }

    /// The value now (a copy).
    public var current: Value { value.withLock { $0 } }
}
