import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// An eventfd that becomes readable once `open()` was called: lets the main thread wait in one
/// `poll()` for an event that happens on another thread (the bus going away).
final class EventLatch: Sendable {
    let fileDescriptor: Int32

    init?() {
        fileDescriptor = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard fileDescriptor >= 0 else { return nil }
    }

    deinit { close(fileDescriptor) }

    func open() {
        var one: UInt64 = 1
        _ = write(fileDescriptor, &one, 8)
    }
}
