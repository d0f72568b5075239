import Posix
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Counts calls whose answer is still to come, so that a clean stop can wait (bounded) until the
/// server has taken the last undo before the link closes. Waits in one `poll()` with a timeout:
/// only at shutdown, never while idle.
final class Outstanding: Sendable {
    private let count = Mutex(0)
    private let done: WakeEvent?

    init() {
        done = try? WakeEvent()
    }

    func begin() {
        count.withLock { $0 += 1 }
    }

    func end() {
        let last = count.withLock { count -> Bool in
            count -= 1
            return count == 0
        }
        if last { done?.signal() }
    }

    /// Returns once every call began has ended, or after `patience`.
    func wait(_ patience: Duration) {
        guard let done else { return }
        let deadline = ContinuousClock.now + patience
        while count.withLock({ $0 > 0 }) {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return }
            let milliseconds = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
            var entry = [done.pollDescriptor]
            guard (try? Poll.wait(&entry, timeoutMilliseconds: Swift.max(milliseconds, 1))) != nil else { return }
            done.drain()
        }
    }
}
