#if canImport(Glibc)
import Glibc
#endif

/// `poll(2)` with the one rule every loop of the program follows.
///
/// A signal that interrupts the wait (`EINTR`) is no failure: the loop goes round and sleeps again.
/// Any other failure (`EBADF`, `EFAULT`, `EINVAL`, `ENOMEM`) would fail again at once on the same
/// descriptors, so going round would spin a core: it is thrown, and the loop ends and reports it.
public enum Poll {
    /// Waits until one of `descriptors` is ready or `timeoutMilliseconds` passed (-1: no limit);
    /// `revents` are cleared first. Returns how many are ready: 0 after the timeout or a signal.
    public static func wait(_ descriptors: inout [pollfd], timeoutMilliseconds: Int32 = -1) throws(PosixError) -> Int {
        for index in descriptors.indices { descriptors[index].revents = 0 }
        let ready = poll(&descriptors, nfds_t(descriptors.count), timeoutMilliseconds)
        if ready >= 0 { return Int(ready) }
        if errno == EINTR { return 0 }
        throw PosixError.lastError("poll")
    }

    /// Waits until `fileDescriptor` is readable (or hung up), going round after signals.
    public static func waitUntilReadable(_ fileDescriptor: Int32) throws(PosixError) {
        var entry = [pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)]
        while try wait(&entry) == 0 {}
    }
}
