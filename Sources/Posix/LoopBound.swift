/// State that only one thread may touch — the thread of a loop — held by objects that other
/// threads share (and so `Sendable`). Every access asserts, in debug builds, that it runs on that
/// thread, so state read or written from the wrong thread is caught where it happens instead of as
/// a rare race; release builds check nothing and cost nothing. Hand work to the loop to touch it.
public final class LoopBound<Value>: @unchecked Sendable {  // invariant: `stored` is accessed only where `isOnLoop` holds, asserted in debug builds
    private var stored: Value
    private let isOnLoop: @Sendable () -> Bool

    /// Binds `value` to the loop whose thread `isOnLoop` recognizes.
    public init(_ value: Value, isOnLoop: @escaping @Sendable () -> Bool) {
        stored = value
        self.isOnLoop = isOnLoop
    }

    /// The value; only on the loop's thread.
    public var value: Value {
        get {
            assert(isOnLoop(), "loop-bound state read off its loop's thread")
            return stored
        }
        _modify {
            assert(isOnLoop(), "loop-bound state changed off its loop's thread")
            yield &stored
        }
    }

    /// Whether the caller may touch the value (it runs on the loop's thread).
    public var isAccessible: Bool { isOnLoop() }
}
