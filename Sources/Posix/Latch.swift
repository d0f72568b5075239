import CLinux
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A one-shot hand-over of a value from one thread to threads that block waiting for it: a
/// completion that runs on a connection's I/O thread (or any other) answering a caller that must
/// not return before it (`Connection.callAndWait`, a subscription that has to be in place).
///
/// Only the first `open(with:)` counts; later ones are ignored. Once open, it stays open: every
/// `wait` returns the value at once. Built on a POSIX semaphore, not on libdispatch or Swift
/// concurrency, so a program that never starts Swift's thread pool (whose monitor ticks once a
/// second) can still wait; a waiter sleeps without a timer and without a file descriptor.
public final class Latch<Value: Sendable>: @unchecked Sendable {  // invariant: `semaphore` is set up in init, used only through the thread-safe sem_* calls and destroyed in deinit, when no thread can wait on it; `value` behind a Mutex
    private let semaphore: UnsafeMutablePointer<sem_t>
    private let value = Mutex<Value?>(nil)

    public init() {
        semaphore = .allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
    }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    /// Hands over `result` and wakes the waiters; only the first call counts.
    public func open(with result: Value) {
        let first = value.withLock { stored -> Bool in
            guard stored == nil else { return false }
            stored = result
            return true
        }
        if first { sem_post(semaphore) }
    }

    /// Blocks until `open(with:)` was called, then returns its value.
    public func wait() -> Value {
        while true {
            if sem_wait(semaphore) == 0, let result = value.withLock({ $0 }) {
                sem_post(semaphore)  // open for good: the next waiter passes too
                return result
            }
        }
    }

    /// Blocks until `open(with:)` was called, then returns its value; nil once `timeout` has passed
    /// (on the monotonic clock, so a change of the wall clock neither shortens nor lengthens it).
    public func wait(timeout: Duration) -> Value? {
        var deadline = Self.deadline(after: timeout)
        while true {
            if sem_clockwait(semaphore, CLOCK_MONOTONIC, &deadline) == 0 {
                if let result = value.withLock({ $0 }) {
                    sem_post(semaphore)
                    return result
                }
            } else if errno != EINTR {
                return nil
            }
        }
    }

    /// `CLOCK_MONOTONIC` now plus `timeout` (at most about 35,000 years, so the sum always fits).
    private static func deadline(after timeout: Duration) -> timespec {
        let start = Duration.nanoseconds(MonotonicClock.nanoseconds())
        let (seconds, attoseconds) = max(start + min(timeout, .seconds(1 << 40)), .zero).components
        return timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    }
}

extension Latch where Value == Void {
    /// Wakes the waiters (a latch that carries no value); only the first call counts.
    public func open() { open(with: ()) }
}
