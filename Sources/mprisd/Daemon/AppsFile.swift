import Posix
import SystemContext
#if canImport(Glibc)
import Glibc
#endif

/// Where `mprisd apps set` writes, and the lock its read-modify-write holds: the apps file, or —
/// when it is a symbolic link (dotfiles kept in a repository and linked into place) — the file it
/// points to, so that the replacement (`StateFile.replace`, a rename) updates the user's file
/// instead of breaking the link.
enum AppsFile {
    struct Unwritable: Error, CustomStringConvertible {
        let description: String
    }

    /// How long an edit waits for another one to finish before it gives up: an edit holds the
    /// lock for a few milliseconds, so only a stopped one (^Z mid-edit) makes anyone wait.
    static let lockWait: UInt32 = 5

    /// `path`, or the target of the symbolic link at `path` (`realpath(3)`).
    static func writablePath(_ path: String) throws(Unwritable) -> String {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return path }
        guard let resolved = realpath(path, nil) else {
            throw Unwritable(description: "cannot follow the link \(path): \(PosixError.reason(errno))")
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Runs `body` holding an exclusive `flock(2)` on the directory of `target` (made when
    /// missing), so that two edits at once are one after the other instead of the second
    /// writing back what it read before the first replaced the file (issue 24: 20 parallel sets
    /// kept 3 rules). The directory, not the file, is locked: the file is replaced by a rename,
    /// so a lock on it would be on the old inode; and the directory adds no lock file beside
    /// the user's. The kernel drops the lock when the process dies, however it dies.
    static func whileLocked<T>(_ target: String, _ body: () -> T) throws(Unwritable) -> T {
        let directory = StateFile(path: target).directory
        do {
            try StateFile.makeDirectory(directory)
        } catch {
            throw Unwritable(description: "\(error)")
        }
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw Unwritable(description: "cannot open \(directory): \(PosixError.reason(errno))") }
        defer { close(fd) }  // also releases the lock
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK else {
                throw Unwritable(description: "cannot lock \(directory): \(PosixError.reason(errno))")
            }
            try waitForTheLock(fd, directory)
        }
        return body()
    }

    /// `flock(fd, LOCK_EX)` interrupted by `SIGALRM` after `lockWait` seconds.
    private static func waitForTheLock(_ fd: Int32, _ directory: String) throws(Unwritable) {
        var interrupt = sigaction()
        interrupt.__sigaction_handler.sa_handler = { _ in }  // no SA_RESTART: flock returns EINTR
        var previous = sigaction()
        sigaction(SIGALRM, &interrupt, &previous)
        alarm(lockWait)
        let status = flock(fd, LOCK_EX)
        let code = errno
        alarm(0)
        sigaction(SIGALRM, &previous, nil)
        guard status == 0 else {
            if code == EINTR {
                throw Unwritable(description: "another edit of the apps file has held the lock on \(directory) "
                                 + "for \(lockWait) s (a stopped `mprisd apps`?)")
            }
            throw Unwritable(description: "cannot lock \(directory): \(PosixError.reason(code))")
        }
    }
}
