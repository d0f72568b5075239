import DBus
import PolicyJournal
import Posix
import SystemContext

/// The journal lock, taken before the name (issue 24): a daemon whose journal is another live
/// daemon's — the daemon of another session bus with the same `XDG_STATE_HOME`, two logins of
/// one user — cannot serve, since each would take the other's entries for a dead predecessor's
/// and undo them. So it says why in one line and exits before it owns `org.mprisd.AudioPolicy`,
/// instead of owning the name while it waits in `flock` (the clients on its bus then find no
/// daemon, and `mprisd status` names the other one). A journal per bus was the other way; it
/// would leave the entries about the audio server's streams — which both buses' daemons share
/// when one user runs both — to whichever daemon happens to read them, so one owner it is.
extension PolicyDaemon {
    enum JournalLockOutcome {
        /// Go on and claim the name; `lock` is nil only when it could not be had at all.
        case proceed(JournalLock?)
        /// A daemon on this bus (`bus`) holds it: the name request says so; once the name is ours
        /// after all (that one was stopping), wait for the lock.
        case sameBus(bus: String)
        /// Exit with this status: the log said why.
        case refuse(Int32)
    }

    static func takeJournalLock(_ connection: Connection, log: DaemonLog) -> JournalLockOutcome {
        let bus = connection.busID() ?? ""
        switch JournalLock.forDaemon(bus: bus) {
        case .taken(let lock):
            return .proceed(lock)
        case .heldByDaemon(let holder) where holder.bus == bus:
            return .sameBus(bus: bus)
        case .heldByDaemon(let holder):
            log.warning("not starting: the mprisd of another session bus (pid \(holder.pid)) keeps its journal in "
                        + "\(ChangeJournal.defaultFile.directory), and a second daemon sharing it would undo that one's "
                        + "changes; give this session its own XDG_STATE_HOME, or stop that daemon")
            return .refuse(ExitStatus.unavailable)
        case .unavailable(let code):
            log.warning("the journal lock could not be taken (\(PosixError.reason(code))); replaying without it")
            return .proceed(nil)
        }
    }
}
