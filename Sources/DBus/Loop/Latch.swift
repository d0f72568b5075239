import CLinux
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A one-shot hand-over of a value from one thread to a thread that blocks waiting for it.
///
/// Built on an `eventfd` rather than on libdispatch, so a program that never starts Swift
/// concurrency's thread pool (whose libdispatch monitor ticks once a second) can still wait.
final class Latch<Value: Sendable>: Sendable {
    private let fd: Int32
    private let value = Mutex<Value?>(nil)

    init() throws(DBusError) {
        fd = eventfd(0, Int32(EFD_CLOEXEC))
        guard fd >= 0 else { throw DBusError.failed("eventfd failed: errno \(errno)") }
    }

    deinit {
        close(fd)
    }

    func open(with result: Value) {
        value.withLock { $0 = result }
        var one: UInt64 = 1
        _ = write(fd, &one, 8)
    }

    /// Blocks until `open(with:)` was called, then returns its value.
    func wait() -> Value {
        var counter: UInt64 = 0
        while true {
            if read(fd, &counter, 8) == 8, let result = value.withLock({ $0 }) { return result }
            if errno != EINTR, let result = value.withLock({ $0 }) { return result }
        }
    }
}
