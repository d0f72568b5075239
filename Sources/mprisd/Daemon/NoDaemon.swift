import AudioPolicyClient
import DBus
import PolicyJournal

/// What `mprisd status`, `apps` and `players` say when no daemon answers on the session bus: how
/// to start one — or, when the daemon of another session bus keeps the journal of this state
/// directory (two logins sharing `XDG_STATE_HOME`), that this bus's daemon refuses to start and
/// why (issue 24), as its log says.
enum NoDaemon {
    static func message(command: String, _ connection: Connection) -> String {
        if let bus = connection.busID(), let other = JournalLock.daemonOfAnotherBus(than: bus) {
            return "mprisd \(command): no policy daemon on this session bus: the mprisd of another session bus "
                + "(pid \(other.pid)) keeps its journal in \(ChangeJournal.defaultFile.directory), which a daemon here "
                + "may not share; give this session its own XDG_STATE_HOME, or stop that daemon"
        }
        return "mprisd \(command): no policy daemon on the session bus (start 'mprisd' or install the user service)"
    }

    /// The daemon runs but did not answer within `seconds`: named with its unique name and pid.
    static func notAnswering(command: String, seconds: Int64, _ connection: Connection) -> String {
        "mprisd \(command): the policy daemon \(connection.peerDescription(AudioPolicyNames.busName)) "
            + "did not answer within \(seconds) s (stopped, or too busy)"
    }
}
