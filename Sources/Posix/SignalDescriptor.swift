import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// Signals taken as events on a `signalfd`, so a thread can wait for them next to its other
/// descriptors in one `poll()`, with no handler running at a random point and no wake-up while
/// nothing happens.
///
/// Create it on the main thread before any other thread starts: the signals are blocked there and
/// new threads inherit the mask, so only the descriptor ever sees them (a thread that did not block
/// SIGTERM would die of it).
public final class SignalDescriptor: Sendable {
    /// The readable descriptor (`signalfd`, non-blocking, close-on-exec).
    public let fileDescriptor: Int32

    /// Blocks `signals` in the calling thread and opens a `signalfd` for them.
    public init(_ signals: [Int32]) throws(PosixError) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        let code = pthread_sigmask(SIG_BLOCK, &set, nil)
        guard code == 0 else { throw PosixError("pthread_sigmask", code: code) }
        let fd = signalfd(-1, &set, Int32(SFD_CLOEXEC | SFD_NONBLOCK))
        guard fd >= 0 else { throw PosixError.lastError("signalfd") }
        fileDescriptor = fd
    }

    /// SIGINT and SIGTERM: what asks a program to stop.
    public static func stopSignals() throws(PosixError) -> SignalDescriptor {
        try SignalDescriptor([SIGINT, SIGTERM])
    }

    deinit {
        close(fileDescriptor)
    }

    /// The signals that arrived since the last call, in order; empty when none did (never blocks).
    public func take() -> [Int32] {
        var taken: [Int32] = []
        var info = signalfd_siginfo()
        while read(fileDescriptor, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            taken.append(Int32(info.ssi_signo))
        }
        return taken
    }

    /// Blocks until one of the signals arrives or `other` becomes readable. Returns the signal
    /// number, or nil when `other` woke it.
    /// - Throws: a failing `poll` (`Poll`'s rule).
    public func wait(orReadable other: Int32) throws(PosixError) -> Int32? {
        var descriptors = [pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: other, events: Int16(POLLIN), revents: 0)]
        while true {
            guard try Poll.wait(&descriptors) > 0 else { continue }
            if descriptors[0].revents != 0, let signal = take().first { return signal }
            if descriptors[1].revents != 0 { return nil }
        }
    }
}
