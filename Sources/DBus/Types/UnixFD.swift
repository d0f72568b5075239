#if canImport(Glibc)
import Glibc
#endif

/// A file descriptor carried by a D-Bus message (type `h`).
///
/// Owns its descriptor and closes it when the last reference goes, so a received fd is never leaked
/// and never closed twice. Marshalling duplicates it (libdbus sends a copy), so a `UnixFD` stays
/// usable after it was sent.
public final class UnixFD: Sendable, Hashable, CustomStringConvertible {
    /// The descriptor; valid for the lifetime of this object.
    public let fileDescriptor: Int32

    /// Takes ownership of `fd`: it is closed when this object goes away.
    public init(takingOwnershipOf fd: Int32) throws(DBusError) {
        guard fd >= 0, fcntl(fd, F_GETFD) != -1 else {
            throw DBusError.invalidArgs("\(fd) is not an open file descriptor")
        }
        fileDescriptor = fd
    }

    /// Duplicates `fd` (close-on-exec) and owns the copy; the caller keeps `fd`.
    public convenience init(duplicating fd: Int32) throws(DBusError) {
        let copy = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else { throw DBusError.invalidArgs("cannot duplicate file descriptor \(fd)") }
        try self.init(takingOwnershipOf: copy)
    }

    deinit {
        close(fileDescriptor)
    }

    /// Two values are equal when they refer to the same open file (same device and inode), which
    /// is what survives a trip through the bus (the number itself changes).
    public static func == (lhs: UnixFD, rhs: UnixFD) -> Bool {
        lhs === rhs || lhs.identity == rhs.identity
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(identity?.device)
        hasher.combine(identity?.inode)
    }

    public var description: String { "fd \(fileDescriptor)" }

    private var identity: FileIdentity? {
        var info = stat()
        guard fstat(fileDescriptor, &info) == 0 else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
}

private struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64
}
