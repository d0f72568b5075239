import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// SIGINT and SIGTERM taken as events on a `signalfd`, so a program's main thread can wait for
/// them (and for its own work to end) in one `poll()`, with no handler running at a random point
/// and no wake-up while nothing happens.
///
/// Create it on the main thread before any other thread starts: the signals are blocked here and
/// new threads inherit the mask, so only the fd ever sees them.
public final class StopSignals: Sendable {
    /// The readable fd (`signalfd`).
    public let fileDescriptor: Int32

    public init() throws(PlayerError) {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &set, nil)
        let fd = signalfd(-1, &set, Int32(SFD_CLOEXEC | SFD_NONBLOCK))
        guard fd >= 0 else { throw PlayerError("signalfd failed: errno \(errno)") }
        fileDescriptor = fd
    }

    deinit {
        close(fileDescriptor)
    }

    /// Blocks until a stop signal arrives or `other` becomes readable. Returns the signal number,
    /// or nil when `other` woke it.
    public func wait(orReadable other: Int32) -> Int32? {
        var fds = [pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: other, events: Int16(POLLIN), revents: 0)]
        while true {
            if poll(&fds, nfds_t(fds.count), -1) < 0 { continue }
            if fds[0].revents != 0 {
                var info = signalfd_siginfo()
                if read(fileDescriptor, &info, MemoryLayout<signalfd_siginfo>.size) > 0 {
                    return Int32(info.ssi_signo)
                }
            }
            if fds[1].revents != 0 { return nil }
        }
    }
}

/// A failure of the player, with a message for people.
public struct PlayerError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
