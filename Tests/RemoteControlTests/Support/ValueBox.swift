import Synchronization

/// A Sendable holder for a Mutex shared with I/O-thread callbacks.
final class ValueBox<Value: Sendable>: Sendable {
    let value: Mutex<Value>
    init(_ initial: sending Value) {
        value = Mutex(initial)
    }
}
