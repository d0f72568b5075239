import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// An `eventfd(2)` that wakes a thread sleeping in `poll()`: another thread calls `signal()`, the
/// sleeper polls `fileDescriptor` for `POLLIN` next to its other descriptors and calls `drain()`.
/// Nothing wakes until someone signals, so a loop on it costs zero wake-ups while idle.
///
/// Non-blocking and close-on-exec. Signals add up until drained (a signal before the sleep is not
/// lost); an event never drained stays readable for good, which makes it a latch. The descriptor
/// closes when the last holder (the sleeping thread or its owner) lets go.
public final class WakeEvent: Sendable {
    /// The descriptor to poll for `POLLIN`.
    public let fileDescriptor: Int32

    /// `eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)`.
    public init() throws(PosixError) {
        fileDescriptor = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard fileDescriptor >= 0 else { throw PosixError.lastError("eventfd") }
    }

    deinit {
        close(fileDescriptor)
    }

    /// The `pollfd` entry that waits for a signal.
    public var pollDescriptor: pollfd {
        pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
    }

    /// Wakes the sleeper: `write` of 1 to the eventfd. Cannot block; a counter at its maximum is
    /// already readable, so a failed write loses nothing.
    public func signal() {
        var one: UInt64 = 1
        _ = write(fileDescriptor, &one, 8)
    }

    /// Consumes the signals so far (`read` of the counter); returns how many there were, 0 when
    /// none were pending.
    @discardableResult
    public func drain() -> UInt64 {
        var counter: UInt64 = 0
        return read(fileDescriptor, &counter, 8) == 8 ? counter : 0
    }

    /// Whether a signal is pending, without consuming it: `poll()` with a zero timeout. For a busy
    /// thread that looks between two pieces of work whether someone wants its attention.
    public var isSignalled: Bool {
        var entry = [pollDescriptor]
        return ((try? Poll.wait(&entry, timeoutMilliseconds: 0)) ?? 0) > 0
    }

    /// Blocks in `poll()` until signalled, then drains: for a thread that has nothing else to wait on.
    /// - Throws: a failing `poll` (`Poll`'s rule).
    public func wait() throws(PosixError) {
        var entry = [pollDescriptor]
        while true {
            if try Poll.wait(&entry) > 0, drain() > 0 { return }
        }
    }
}
