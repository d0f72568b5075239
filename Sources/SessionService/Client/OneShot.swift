import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A one-shot hand-over of a value to a thread that blocks waiting for it (a set-up whose
/// completion runs on a connection's I/O thread).
///
/// A POSIX semaphore, not libdispatch or Swift concurrency: the daemon must never start Swift's
/// thread pool (its monitor ticks once a second). The DBus module's `Latch` does the same job but
/// is internal to it.
final class OneShot<Value: Sendable>: @unchecked Sendable {
    // Safe: `semaphore` is allocated once, initialised before use, only touched through the
    // thread-safe sem_* calls and freed in deinit when no thread can be waiting any more.
    private let semaphore: UnsafeMutablePointer<sem_t>
    private let value = Mutex<Value?>(nil)

    init() {
        semaphore = .allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
    }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    /// Hands over `result`; only the first call counts.
    func fulfil(_ result: Value) {
        let first = value.withLock { stored -> Bool in
            guard stored == nil else { return false }
            stored = result
            return true
        }
        if first { sem_post(semaphore) }
    }

    /// Blocks until `fulfil` was called, then returns its value.
    func wait() -> Value {
        while true {
            if sem_wait(semaphore) == 0, let result = value.withLock({ $0 }) {
                sem_post(semaphore)
                return result
            }
        }
    }
}
