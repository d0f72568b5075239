#if canImport(Glibc)
import Glibc
import SystemContext
#endif

/// The lock that makes a journal replay happen once, and the journal one daemon's: the journal
/// guard of a daemon that died and a daemon starting at the same moment would otherwise both undo
/// the same change, and two daemons of two session buses sharing one state directory would each
/// take the other's entries for a dead predecessor's (`$XDG_STATE_HOME/mprisd/journal.lock`,
/// `flock(2)`; the kernel releases it when its holder dies, so a crash cannot leave it taken).
///
/// The holder writes who it is into the file (`daemon PID BUS-ID` or `guard PID`), so that one
/// that finds the lock taken can tell a guard replaying (wait: it is done in a moment) from a live
/// daemon (refuse at once, saying which — issue 24: the second daemon waited in `flock` without a
/// word, owning a name it could not serve).
public final class JournalLock: Sendable {
    private let fd: Int32

    /// Who holds (or last held) the lock.
    public struct Holder: Sendable, Hashable {
        public enum Role: String, Sendable {
            case daemon
            case journalGuard = "guard"
        }

        public var role: Role
        public var pid: pid_t
        /// The session bus's id (`org.freedesktop.DBus.GetId`) of a daemon; empty for a guard.
        public var bus: String

        public init(role: Role, pid: pid_t, bus: String = "") {
            self.role = role
            self.pid = pid
            self.bus = bus
        }

        /// `daemon 1234 0123…cdef`, `guard 1234`.
        public var line: String { [role.rawValue, String(pid), bus].filter { !$0.isEmpty }.joined(separator: " ") }

        init?(line: Substring) {
            let words = line.split(separator: " ")
            guard words.count >= 2, let role = Role(rawValue: String(words[0])), let pid = pid_t(words[1]), pid > 0 else {
                return nil
            }
            self.init(role: role, pid: pid, bus: words.count > 2 ? String(words[2]) : "")
        }

        /// The process still runs (`kill(pid, 0)`).
        var isAlive: Bool { kill(pid, 0) == 0 || errno == EPERM }

        /// The process is an `mprisd` (`/proc/PID/comm`): a pid named by a holder that has since
        /// exited, without the lock, may be another program's now.
        var isMprisd: Bool {
            (try? SettingsFile.read("/proc/\(pid)/comm"))??.hasPrefix("mprisd") ?? false
        }
    }

    /// What a daemon found when it asked for the lock.
    public enum Attempt: Sendable {
        /// Ours, with our name in it.
        case taken(JournalLock)
        /// A live daemon holds it: the daemon of another session bus (`holder.bus` differs), or
        /// one on this bus (which then owns the name, as the name request says).
        case heldByDaemon(Holder)
        /// The lock file cannot be opened (a read-only state directory): the daemon goes on
        /// unlocked, as the journal itself cannot be written either.
        case unavailable(Int32)
    }

    /// The daemon's lock: taken at once if free; waited for while a guard (or a holder that has
    /// just died) replays; refused while a live daemon holds it.
    public static func forDaemon(bus: String, beside journal: StateFile = ChangeJournal.defaultFile) -> Attempt {
        let me = Holder(role: .daemon, pid: getpid(), bus: bus)
        let fd = open(beside: journal)
        guard fd >= 0 else { return .unavailable(errno) }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if errno == EWOULDBLOCK, let holder = holder(fd), holder.role == .daemon, holder.isAlive {
                close(fd)
                return .heldByDaemon(holder)
            }
            guard wait(fd) else {
                let code = errno
                close(fd)
                return .unavailable(code)
            }
        }
        return .taken(JournalLock(fd: fd, holder: me))
    }

    /// Waits for the lock beside `journal` and takes it as `holder` (the guard); nil when the lock
    /// file cannot be opened (the replay then goes ahead unlocked: undoing twice is safe, only
    /// wasteful).
    public convenience init?(beside journal: StateFile = ChangeJournal.defaultFile,
                             as holder: Holder = Holder(role: .journalGuard, pid: getpid())) {
        let fd = Self.open(beside: journal)
        guard fd >= 0 else { return nil }
        guard Self.wait(fd) else {
            close(fd)
            return nil
        }
        self.init(fd: fd, holder: holder)
    }

    private init(fd: Int32, holder: Holder) {
        self.fd = fd
        let text = Array((holder.line + "\n").utf8)
        if ftruncate(fd, 0) == 0 { _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } }
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }

    /// The holder named in the lock file beside `journal`, whether or not it still holds it (for
    /// `mprisd status`: why no daemon serves this bus).
    public static func lastHolder(beside journal: StateFile = ChangeJournal.defaultFile) -> Holder? {
        let path = journal.path + ".lock"
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return holder(fd)
    }

    /// Whether the lock beside `journal` is held by a live daemon of another bus than `bus`.
    public static func daemonOfAnotherBus(than bus: String, beside journal: StateFile = ChangeJournal.defaultFile) -> Holder? {
        guard let holder = lastHolder(beside: journal), holder.role == .daemon, holder.bus != bus, holder.isAlive,
              holder.isMprisd else { return nil }
        return holder
    }

    // MARK: The file

    /// The lock file's descriptor, -1 (and `errno`) when it cannot be opened.
    private static func open(beside journal: StateFile) -> Int32 {
        try? StateFile.makeDirectory(journal.directory)
        return Glibc.open(journal.path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
    }

    /// `flock(fd, LOCK_EX)`, again after a signal.
    private static func wait(_ fd: Int32) -> Bool {
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { return false }
        }
        return true
    }

    private static func holder(_ fd: Int32) -> Holder? {
        var bytes = [UInt8](repeating: 0, count: 256)
        let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard got > 0 else { return nil }
        let text = String(decoding: bytes[..<got], as: UTF8.self)
        return text.split(separator: "\n").first.flatMap(Holder.init(line:))
    }
}
