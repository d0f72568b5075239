import AudioPolicyClient
import DBus
import PolicyJournal
import Posix
#if canImport(Glibc)
import Glibc
#endif

/// The journal guard: a small process the daemon starts beside itself, which undoes what the
/// daemon changed in other programs if the daemon dies without doing it (SIGKILL, a crash, the
/// out-of-memory killer) — also when no new daemon is started.
///
/// It sleeps in a blocking `read` of a pipe whose write end only the daemon holds (no bus
/// connection, no wake-ups); the kernel closes that end when the daemon dies, however it dies.
/// Then it replays the journal (`JournalReplay`): volumes set back at once, pauses resumed —
/// those whose cause is still on the bus (a call that goes on) when that cause goes. It stops
/// waiting as soon as another daemon owns `org.mprisd.AudioPolicy` (that one adopts the rest).
/// After a clean stop the journal is empty and it exits at once. Entries about audio-server
/// streams are left for the next daemon, which restores them once it connects to the server.
///
/// It ignores the stop signals (SIGINT from a terminal reaches the whole process group): the
/// daemon decides when it ends, by ending.
public enum JournalGuard {
    /// The hidden first argument that makes `mprisd` the guard.
    public static let argument = "--journal-guard"

    // MARK: The daemon's side

    /// Starts the guard with the read end of a new pipe as its standard input; returns the write
    /// end, which the daemon keeps open for the rest of its life (close-on-exec, so no other
    /// program inherits it). nil, with a warning, when the guard cannot be started.
    static func start(log: DaemonLog) -> Int32? {
        var ends: [Int32] = [-1, -1]
        // pipe(2) then close-on-exec (the daemon starts no other program meanwhile).
        guard pipe(&ends) == 0, fcntl(ends[0], F_SETFD, FD_CLOEXEC) == 0, fcntl(ends[1], F_SETFD, FD_CLOEXEC) == 0 else {
            log.warning("the journal guard was not started: \(PosixError.reason(errno))")
            return nil
        }
        defer { close(ends[0]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
        let program = "/proc/self/exe"
        let arguments = ["mprisd", argument]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        // The child inherits the daemon's blocked SIGINT/SIGTERM (StopSignals) and keeps them so.
        let status = posix_spawn(&pid, program, &actions, nil, &argv, environ)
        guard status == 0 else {
            close(ends[1])
            log.warning("the journal guard was not started: \(PosixError.reason(status))")
            return nil
        }
        log.debug("journal guard started (pid \(pid))")
        return ends[1]
    }

    // MARK: The guard's side

    /// The guard's whole life; returns its exit status.
    public static func run() -> Int32 {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT] { sigaddset(&set, signal) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        waitForTheDaemonToEnd()

        let log = DaemonLog(verbose: false)
        let say: @Sendable (String) -> Void = { log.info("mprisd journal guard: " + $0) }
        let connection: Connection
        let journal: ChangeJournal
        let waiting: [JournalEntry]
        do {
            // Under the journal lock (if it can be had: undoing twice is safe): a daemon starting
            // now waits until this replay is done.
            let lock = JournalLock()
            defer { withExtendedLifetime(lock) {} }
            let entries = ChangeJournal.read(log: say)
            // Streams are the next daemon's: the guard has no audio-server connection. They stay
            // in the journal whatever happens to the players' entries.
            let streams = ChangeJournal.readStreams(log: say)
            guard !entries.isEmpty else { return ExitStatus.success }
            do {
                connection = try Connection(bus: .session)
            } catch {
                say("the daemon died and left changes to undo, but the session bus is gone: \(error.message)")
                return ExitStatus.failure
            }
            say("the daemon died; undoing what it changed in other programs")
            waiting = JournalReplay(connection: connection, log: say).run(entries)
            journal = ChangeJournal(entries: waiting, streams: streams, log: say)
        }
        defer { connection.close() }
        guard !waiting.isEmpty else { return ExitStatus.success }

        let done = Latch<Void>()
        let token = connection.onEvent { if $0 == .disconnected { done.open() } }
        defer { connection.removeEventHandler(token) }
        let pending = PendingResumes(connection: connection, journal: journal, waiting: waiting,
                                     log: say, onEmpty: { done.open() })
        watchForANewDaemon(connection) {
            say("a new daemon took over; it resumes the rest")
            done.open()
        }
        pending.start()
        done.wait()
        pending.stop()
        return ExitStatus.success
    }

    /// Blocks in `read` on standard input until end of file: the daemon, the only holder of the
    /// write end, is gone.
    private static func waitForTheDaemonToEnd() {
        var byte: UInt8 = 0
        while true {
            let got = read(0, &byte, 1)
            if got == 0 { return }
            if got < 0, errno != EINTR, errno != EAGAIN { return }
        }
    }

    /// Calls `found` once `org.mprisd.AudioPolicy` has an owner (now or later). The watch lives
    /// as long as the guard's connection.
    private static func watchForANewDaemon(_ connection: Connection, found: @escaping @Sendable () -> Void) {
        connection.watchNameOwner(AudioPolicyNames.busName, { owner in
            if owner != nil { found() }
        }, completion: { _ in })
    }
}
