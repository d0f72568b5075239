import DBus
import PolicyJournal

#if canImport(Glibc)
import Glibc
#endif

/// The daemon's side of the journal of changes to other programs (`ChangeJournal`): what a dead
/// predecessor left is replayed first, the journal is kept from then on, and a clean stop leaves
/// it empty.
///
/// - The journal lock is held for the daemon's whole life, so no guard or second daemon replays
///   the journal under a live daemon; the kernel releases it when the daemon dies.
/// - The replay runs once the daemon owns its name (so it is the only daemon) and before it
///   follows any player (so a volume it is about to restore is never read as the user's and
///   ducked again); clients that register meanwhile duck the restored value.
/// - Pauses whose cause is still on the bus wait for it to go (`PendingResumes`).
/// - The journal guard is started last: it takes over if this daemon dies.
final class DaemonJournal: Sendable {
    let journal: ChangeJournal
    private let connection: Connection
    private let log: DaemonLog
    private let lock: JournalLock?
    private let pending: PendingResumes
    /// The write end of the guard's pipe; closed by `close`, or by the kernel when we die.
    private let guardPipe: Int32?

    /// The daemon's journal, not open yet: the parts that record in it and the status that
    /// reports on it are made with it before the name is ours; `init` opens it.
    static func unopened(log: DaemonLog) -> ChangeJournal {
        // A full or read-only state directory fails every write: five lines a minute say so.
        let failures = LogRateLimit()
        return ChangeJournal(unopened: ChangeJournal.defaultFile, log: { line in
            if let line = failures.admit(line) { log.warning(line) }
        })
    }

    /// Replays what a dead predecessor left, then opens `journal` (made by `unopened`) with the
    /// entries still waiting. `lock`: the journal lock the daemon took before it asked for its
    /// name (`PolicyDaemon`), nil when it could not be had.
    init(_ journal: ChangeJournal, connection: Connection, log: DaemonLog, lock: JournalLock?) {
        let say: @Sendable (String) -> Void = { log.info($0) }
        self.journal = journal
        self.connection = connection
        self.log = log
        self.lock = lock
        let left = ChangeJournal.read(log: say)
        // Stream changes are restored by the stream policy once the audio server is connected.
        let streams = ChangeJournal.readStreams(log: say)
        if !left.isEmpty || !streams.isEmpty {
            say("journal: a previous mprisd left \(left.count + streams.count) change(s) to undo")
        }
        let waiting = JournalReplay(connection: connection, log: say).run(left)
        journal.open(entries: waiting, streams: streams)
        pending = PendingResumes(connection: connection, journal: journal, waiting: waiting, log: say)
        pending.start()
        guardPipe = JournalGuard.start(log: log)
    }

    /// A clean stop, once the player tracker has undone its own changes: the pauses adopted from
    /// a predecessor are resumed too, whatever their cause (nothing may outlive the daemon), and
    /// the journal is left empty.
    func undoAll() {
        let adopted = pending.takeAll()
        guard !adopted.isEmpty else { return }
        _ = JournalReplay(connection: connection, log: { [log] in log.info($0) }).run(adopted, ignoringCauses: true)
        journal.forget { entry in adopted.contains(entry) }
    }

    /// Lets the guard go: it finds the journal empty after a clean stop and exits.
    func close() {
        pending.stop()
        if let guardPipe { Glibc.close(guardPipe) }
    }
}
