#if canImport(Glibc)
import Glibc
#endif

/// File descriptors 0, 1 and 2, made sure to exist.
///
/// A launcher that starts us with standard output or error closed (`mprisd >&- 2>&-`) leaves those
/// numbers free: the next file opened — the D-Bus socket — would become fd 2, and the first log
/// line would be written into the bus connection, breaking it. Each closed one is pointed at
/// `/dev/null` before anything else is opened.
enum StandardStreams {
    static func ensureOpen() {
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            let null = open("/dev/null", O_RDWR)
            // Lower numbers are open by now, so `null` is `fd`; anything else is moved there.
            if null >= 0, null != fd {
                dup2(null, fd)
                close(null)
            }
        }
    }
}
