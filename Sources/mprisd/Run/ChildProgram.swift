import CLinux
import Posix
#if canImport(Glibc)
import Glibc
#endif

/// The program `mprisd run` wraps: forked and executed (searching `PATH`), tied to our life by a
/// parent-death signal, sharing the terminal, stdin/stdout/stderr and process group, with an
/// empty signal mask; waited for on a `signalfd` together with SIGINT/SIGTERM/SIGHUP, which are
/// passed on to it (a Ctrl-C reaches it from the terminal anyway). No polling: the main thread
/// sleeps until the child ends.
struct ChildProgram {
    let pid: pid_t
    private let signals: SignalDescriptor

    /// Blocks SIGCHLD, SIGINT, SIGTERM and SIGHUP and returns a `signalfd` for them. Call it on
    /// the main thread before any other thread starts (threads inherit the mask; a thread that
    /// did not block SIGTERM would die of it).
    static func takeSignals() throws(RunError) -> SignalDescriptor {
        do throws(PosixError) {
            return try SignalDescriptor([SIGCHLD, SIGINT, SIGTERM, SIGHUP])
        } catch {
            throw RunError("\(error)")
        }
    }

    /// Our own environment as `NAME=VALUE` entries (`environ`), the base of the program's.
    static func currentEnvironment() -> [String] {
        var entries: [String] = []
        // Null after a clearenv(): no entries.
        guard var cursor = Optional(environ) else { return entries }
        while let entry = cursor.pointee {
            entries.append(String(cString: entry))
            cursor += 1
        }
        return entries
    }

    /// Starts `command` (`command[0]` looked up in `PATH`) with `environment` (`NAME=VALUE`
    /// entries); `signals` comes from `takeSignals`. Call it on the main thread: the child is tied to the thread that
    /// forks it (`clinux_spawn_tied`) and gets SIGTERM if `mprisd run` dies, even of SIGKILL, so
    /// that no program is left running outside the session it was given.
    /// - Throws: a message naming the program when it cannot be started.
    init(_ command: [String], environment: [String], signals: SignalDescriptor) throws(RunError) {
        self.signals = signals
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGCHLD, SIGINT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&defaults, signal) }
        // The child reports a failed exec through this pipe; a successful exec closes it.
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe2(&pipeEnds, O_CLOEXEC) == 0 else {
            throw RunError("cannot run \(command[0]): \(PosixError.reason(errno))")
        }
        defer { close(pipeEnds[0]) }
        var argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer { for pointer in envp { free(pointer) } }
        let child = clinux_spawn_tied(command[0], &argv, &envp, &defaults, SIGTERM, pipeEnds[1])
        let forkError = errno
        close(pipeEnds[1])
        guard child > 0 else {
            throw RunError("cannot run \(command[0]): \(PosixError.reason(forkError))")
        }
        var code: Int32 = 0
        var got: Int
        repeat { got = read(pipeEnds[0], &code, MemoryLayout<Int32>.size) } while got < 0 && errno == EINTR
        guard got <= 0 else {
            var status: Int32 = 0
            waitpid(child, &status, 0)
            throw RunError("cannot run \(command[0]): \(PosixError.reason(code))")
        }
        pid = child
    }

    /// Waits until the program ends, passing stop signals on; returns its exit status, or
    /// 128 + the signal that killed it (as shells report it).
    func wait() -> Int32 {
        var entry = [pollfd(fd: signals.fileDescriptor, events: Int16(POLLIN), revents: 0)]
        while true {
            var status: Int32 = 0
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { return Self.exitStatus(status) }
            if reaped < 0, errno != EINTR { return 1 }
            do throws(PosixError) {
                _ = try Poll.wait(&entry)
            } catch {
                // Nothing could tell us of the program's end any more: wait for it without
                // passing signals on (the terminal still sends Ctrl-C to it).
                while waitpid(pid, &status, 0) < 0 {
                    if errno != EINTR { return 1 }
                }
                return Self.exitStatus(status)
            }
            for number in signals.take() where number != SIGCHLD { kill(pid, number) }
        }
    }

    private static func exitStatus(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        if signal == 0 { return (status >> 8) & 0xff }
        return 128 + signal
    }
}

/// A failure of `mprisd run` itself, with a message for people.
struct RunError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
