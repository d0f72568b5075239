#if canImport(Glibc)
import Glibc
import SystemContext
#endif

/// The lock that makes a journal replay happen once: the journal guard of a daemon that died
/// and a daemon starting at the same moment would otherwise both undo the same change
/// (`$XDG_STATE_HOME/mprisd/journal.lock`, `flock(2)`; the kernel releases it when its holder
/// dies, so a crash mid-replay cannot leave it taken).
public final class JournalLock: Sendable {
    private let fd: Int32

    /// Waits for the lock beside `journal` and takes it; nil when the lock file cannot be opened
    /// (the replay then goes ahead unlocked: undoing twice is safe, only wasteful).
    public init?(beside journal: StateFile = ChangeJournal.defaultFile) {
        try? StateFile.makeDirectory(journal.directory)
        let fd = open(journal.path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard fd >= 0 else { return nil }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                close(fd)
                return nil
            }
        }
        self.fd = fd
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
