import Dispatch
import Foundation
import Glibc
import Synchronization

/// A real program that runs alongside a test (a fake daemon, a bridge, a sound server) until the
/// test stops it.
///
/// Standard output is handed over line by line to `onLine` (on a reader thread of its own);
/// standard error is kept (its last 64 KiB) for failure messages. `stop()` kills the program's
/// whole process group with SIGKILL and waits until it is reaped, so nothing outlives the test;
/// dropping the object stops it too.
///
/// Spawned with `posix_spawn`, not `Foundation.Process`, on purpose: Foundation learns that a
/// child ended when an inherited socket closes, and daemons that close every descriptor at start
/// (pulseaudio does) look dead at once; Foundation then blocks in `waitpid` on the live daemon and
/// no other `Process` of the test is ever reaped again. Here a thread of its own waits for the
/// child. The child also gets an empty signal mask and default dispositions (a test thread may
/// have SIGTERM blocked), its own process group, and no descriptors but 0, 1 and 2.
public final class BackgroundProcess: Sendable {
    /// A short name for messages (`dbusmock`, `mpris-proxy`, …).
    public let name: String
    public let pid: Int32

    private let input: Int32?
    private let shared: Shared

    /// Shared with the reaper and the reader threads.
    private final class Shared: Sendable {
        let state = Mutex<State>(State())
        let reaped = DispatchSemaphore(value: 0)
    }

    private struct State {
        var stdout = Data()
        var stderr = Data()
        var status: Int32?
        var stopped = false
        var inputClosed = false
        /// Reaped, and both output streams read to their end (or given up on): the result is whole.
        var pendingParts = 3
        var finished: [@Sendable (Int32) -> Void] = []
    }

    /// One of the three parts of an ending (reaped, stdout at EOF, stderr at EOF) is done; the last
    /// one delivers the status to everyone waiting.
    private static func partDone(_ shared: Shared) {
        let (status, waiters) = shared.state.withLock { state -> (Int32?, [@Sendable (Int32) -> Void]) in
            state.pendingParts -= 1
            guard state.pendingParts == 0, let status = state.status else { return (nil, []) }
            defer { state.finished.removeAll() }
            return (status, state.finished)
        }
        if let status { for waiter in waiters { waiter(status) } }
    }

    /// Starts `path` with `arguments`.
    /// - Parameters:
    ///   - environment: the complete environment (default: the test process's).
    ///   - stdin: whether to keep a channel to its standard input open (see `send(line:)`);
    ///     otherwise it reads from /dev/null.
    ///   - onLine: gets every line of standard output, without the newline.
    ///   - onOutput: gets standard output as it arrives, in the chunks read (for binary output
    ///     such as `parec --raw`).
    ///   - onExit: runs once when the process ends, whoever ended it, with its status (the signal
    ///     number when killed) and what it wrote on standard error.
    public init(name: String? = nil, _ path: String, _ arguments: [String], environment: [String: String]? = nil,
                stdin: Bool = false,
                onLine: (@Sendable (String) -> Void)? = nil,
                onOutput: (@Sendable (Data) -> Void)? = nil,
                onExit: (@Sendable (Int32, String) -> Void)? = nil) throws {
        self.name = name ?? URL(fileURLWithPath: path).lastPathComponent
        let shared = Shared()
        self.shared = shared

        // Socket pairs rather than pipes: created close-on-exec atomically (pipe2 is not visible
        // from Swift), and a write to a dead child is an error (MSG_NOSIGNAL), never a SIGPIPE
        // that kills the test. The child gets its ends as 0, 1 and 2 only.
        var stdinPair: [Int32] = [-1, -1]
        var outPair: [Int32] = [-1, -1]
        var errPair: [Int32] = [-1, -1]
        func closeAll() {
            for fd in stdinPair + outPair + errPair where fd >= 0 { close(fd) }
        }
        let kind = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard !stdin || socketpair(AF_UNIX, kind, 0, &stdinPair) == 0,
              socketpair(AF_UNIX, kind, 0, &outPair) == 0,
              socketpair(AF_UNIX, kind, 0, &errPair) == 0 else {
            closeAll()
            throw TestSupportError("socketpair: \(String(cString: strerror(errno)))")
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if stdin {
            posix_spawn_file_actions_adddup2(&actions, stdinPair[1], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, outPair[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPair[1], 2)
        // Nothing else: descriptors another thread opened without close-on-exec stay here
        // (glibc ignores a close action on a descriptor that was closed meanwhile).
        for fd in Self.openDescriptors() where fd > 2 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD, SIGUSR1, SIGUSR2, SIGALRM] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = (environment ?? ProcessInfo.processInfo.environment)
            .map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, path, &actions, &attributes, argv, envp)
        guard spawned == 0 else {
            closeAll()
            throw TestSupportError("cannot start \(path): \(String(cString: strerror(spawned)))")
        }
        pid = child
        if stdin { close(stdinPair[1]) }
        close(outPair[1])
        close(errPair[1])
        input = stdin ? stdinPair[0] : nil

        let outFD = outPair[0]
        Thread.detachNewThread {
            var buffer = Data()
            var chunk = [UInt8](repeating: 0, count: 16_384)
            while true {
                let count = read(outFD, &chunk, chunk.count)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                if let onOutput {
                    onOutput(Data(chunk[0..<count]))
                    // A binary stream is not kept twice: whoever wants it has it.
                    continue
                }
                buffer.append(contentsOf: chunk[0..<count])
                shared.state.withLock { $0.stdout.append(contentsOf: chunk[0..<count]) }
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...newline)
                    onLine?(line)
                }
            }
            close(outFD)
            if !buffer.isEmpty { onLine?(String(decoding: buffer, as: UTF8.self)) }
            BackgroundProcess.partDone(shared)
        }
        let errFD = errPair[0]
        Thread.detachNewThread {
            var chunk = [UInt8](repeating: 0, count: 16_384)
            while true {
                let count = read(errFD, &chunk, chunk.count)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                shared.state.withLock { $0.stderr.append(contentsOf: chunk[0..<count]) }
            }
            close(errFD)
            BackgroundProcess.partDone(shared)
        }
        let childPID = child
        Thread.detachNewThread {
            var status: Int32 = 0
            while waitpid(childPID, &status, 0) < 0 && errno == EINTR {}
            // WIFEXITED: the exit code; otherwise the terminating signal (as Foundation reports it).
            let code = status & 0x7f == 0 ? (status >> 8) & 0xff : status & 0x7f
            shared.state.withLock { $0.status = code }
            shared.reaped.signal()
            if let onExit {
                shared.state.withLock { state in
                    state.finished.append { code in
                        onExit(code, shared.state.withLock { String(decoding: $0.stderr, as: UTF8.self) })
                    }
                }
            }
            BackgroundProcess.partDone(shared)
        }
    }

    private static func openDescriptors() -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap { Int32($0) }
    }

    /// Whether the process is still running.
    public var isRunning: Bool { shared.state.withLock { $0.status == nil } }

    /// Its exit status (the signal number when killed), or nil while it runs.
    public var exitStatus: Int32? { shared.state.withLock { $0.status } }

    /// What it wrote to standard error so far.
    public var standardError: String { shared.state.withLock { String(decoding: $0.stderr, as: UTF8.self) } }

    /// What it wrote to standard output so far.
    public var standardOutput: String { shared.state.withLock { String(decoding: $0.stdout, as: UTF8.self) } }

    /// Waits until it exited and its output was read to the end; returns its status (the signal
    /// number when killed). Kills it (SIGKILL) after `timeout`.
    public func waitForExit(timeout: Duration = .seconds(30)) async -> Int32 {
        let shared = self.shared
        let pid = self.pid
        let killer = Task {
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
        }
        defer { killer.cancel() }
        return await withCheckedContinuation { continuation in
            let done: Int32? = shared.state.withLock { state in
                if state.pendingParts == 0, let status = state.status { return status }
                state.finished.append { continuation.resume(returning: $0) }
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }
    }

    /// Writes `line` and a newline to its standard input (started with `stdin: true`).
    public func send(line: String) throws {
        guard let input else { throw TestSupportError("\(name) was started without a standard input") }
        let open = shared.state.withLock { !$0.inputClosed }
        guard open, isRunning else { throw TestSupportError("\(name) is not running: \(standardError)") }
        var bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeMutableBytes {
                Glibc.send(input, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { throw TestSupportError("writing to \(name): \(String(cString: strerror(errno)))") }
            offset += sent
        }
    }

    /// Ends its standard input (started with `stdin: true`): the program reads end of file.
    /// Idempotent.
    public func closeInput() {
        let closing = shared.state.withLock { state in
            defer { state.inputClosed = true }
            return !state.inputClosed
        }
        if closing, let input { close(input) }
    }

    /// Blocks the calling thread until the process exited (for synchronous setup code; async
    /// code uses `waitForExit`).
    public func waitUntilExitBlocking() -> Int32 {
        if let status = exitStatus { return status }
        shared.reaped.wait()
        shared.reaped.signal()  // for anyone else waiting
        return exitStatus ?? -1
    }

    /// Ends the program the orderly way: SIGTERM to the process (a `timeout` wrapper passes it on
    /// to its command), then waits up to `grace` for it to exit, and kills the group (`stop()`)
    /// either way, so nothing it started stays behind. Returns its exit status, nil if it had to
    /// be killed.
    @discardableResult
    public func terminate(grace: Duration = .seconds(5)) -> Int32? {
        if isRunning { kill(pid, SIGTERM) }
        let seconds = Double(grace.components.seconds) + Double(grace.components.attoseconds) / 1e18
        var status: Int32?
        if shared.reaped.wait(timeout: .now() + seconds) == .success {
            shared.reaped.signal()  // for anyone else waiting
            status = exitStatus
        }
        stop()
        return status
    }

    /// Kills the process group with SIGKILL and waits until the process is reaped. Idempotent.
    public func stop() {
        let (alreadyStopped, closeInput) = shared.state.withLock { state in
            defer {
                state.stopped = true
                state.inputClosed = true
            }
            return (state.stopped, !state.inputClosed)
        }
        guard !alreadyStopped else { return }
        // The group too: whatever the program started must not outlive the test either.
        kill(-pid, SIGKILL)
        if isRunning { kill(pid, SIGKILL) }
        if closeInput, let input { close(input) }
        if shared.reaped.wait(timeout: .now() + 10) == .success {
            shared.reaped.signal()  // for anyone else waiting
        }
    }

    /// `stop()`, then waits until no process of its group is left running: a `timeout`
    /// wrapper is reaped as soon as it dies, but the program under it, killed in the same
    /// instant, can still hold its listening socket for a moment. For servers, whose end a test
    /// then asserts (nobody answers on the socket).
    public func stopWholeGroup(timeout: Duration = .seconds(5)) {
        stop()
        ProcessGroup.waitUntilGone(pid, timeout: timeout)
    }

    deinit {
        stop()
    }
}
