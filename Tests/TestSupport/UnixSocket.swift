import Glibc

/// Probes of a server's listening socket.
public enum UnixSocket {
    /// Whether a server accepts connections on the socket at `path` right now: `connect(2)` and
    /// close at once.
    ///
    /// Better than asking whether the file exists: a server killed with SIGKILL leaves its socket
    /// file behind, and a restarted one is ready only once it listens again. A bare connection is
    /// not a libpulse client either, so it never creates `$XDG_RUNTIME_DIR/pulse` behind a
    /// starting pipewire-pulse's back (see audio-server-notes.md).
    public static func acceptsConnections(at path: String) -> Bool {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return result == 0
    }
}
