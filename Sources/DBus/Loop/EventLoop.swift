import CDBus
import Posix
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The single I/O thread of one connection: it alone calls into the libdbus connection.
///
/// It sleeps in `poll()` on the fds libdbus asks for (`dbus_connection_set_watch_functions`), with a
/// timeout only while libdbus has a timeout enabled (`set_timeout_functions`), plus an `eventfd`
/// through which other threads hand it work. An idle connection therefore wakes zero times: no
/// periodic tick, and no blocking `read_write_dispatch(-1)` that would strand work queued by other
/// threads.
///
/// Its poll set changes with libdbus's watches and timeouts, which is why it is not a `PollThread`;
/// it follows the same rule (`Poll`): a `poll()` that fails for real ends the connection.
final class EventLoop: @unchecked Sendable {  // invariant: `pending` behind a Mutex; all other state loop-thread only
    typealias Job = @Sendable () -> Void

    private struct Pending {
        var jobs: [Job] = []
        var stopping = false
    }

    private let wakeEvent: WakeEvent
    private let pending = Mutex(Pending())
    private let loopThread = OwningThread()

    // Loop-thread state.
    private struct LoopState {
        var watches: [OpaquePointer] = []
        var timeouts: [OpaquePointer: Int64] = [:]
        var pollSet: [pollfd] = []
        var polled: [OpaquePointer] = []
    }

    /// Behind a pointer rather than in stored `var`s: each access to a class's stored `var` costs
    /// a dynamic exclusivity check (`swift_beginAccess`, ~100 instructions), a dozen per loop
    /// iteration — a message's round (issue 18). Only the loop thread touches it (or `init`'s
    /// caller before `start`), so no two accesses overlap; the accessors below keep the names.
    private let state: UnsafeMutablePointer<LoopState>
    private var watches: [OpaquePointer] {
        get { state.pointee.watches }
        _modify { yield &state.pointee.watches }
    }
    private var timeouts: [OpaquePointer: Int64] {
        get { state.pointee.timeouts }
        _modify { yield &state.pointee.timeouts }
    }
    private var pollSet: [pollfd] {
        get { state.pointee.pollSet }
        _modify { yield &state.pointee.pollSet }
    }
    private var polled: [OpaquePointer] {
        get { state.pointee.polled }
        _modify { yield &state.pointee.polled }
    }
    /// Jobs queued and not yet taken: lets the loop skip the lock when there are none.
    private let queued = Atomic<Int>(0)
    /// Called once per iteration after work ran: the connection dispatches queued messages here.
    var afterWork: () -> Void = {}
    /// Called on the loop thread when the loop has ended, after the last jobs ran.
    var onStop: () -> Void = {}

    init() throws(DBusError) {
        do throws(PosixError) {
            wakeEvent = try WakeEvent()
        } catch {
            throw DBusError.failed("\(error)")
        }
        state = .allocate(capacity: 1)
        state.initialize(to: LoopState())
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Whether the caller runs on this loop's thread.
    var isOnLoopThread: Bool {
        loopThread.isCurrent
    }

    /// Starts the thread. `name` shows in `/proc/PID/task/*/comm`.
    func start(name: String) throws(DBusError) {
        do throws(PosixError) {
            try NamedThread.detached(name: name) { self.run() }
        } catch {
            throw DBusError.failed("cannot start the D-Bus I/O thread: \(error)")
        }
    }

    /// Queues `job` to run on the loop thread. Returns false once the loop has stopped, in which case
    /// the job will never run and the caller must fail whatever waits on it.
    @discardableResult
    func execute(_ job: @escaping Job) -> Bool {
        let accepted = pending.withLock { state -> Bool in
            guard !state.stopping else { return false }
            state.jobs.append(job)
            queued.add(1, ordering: .releasing)
            return true
        }
        if accepted && !isOnLoopThread { wake() }
        return accepted
    }

    /// Asks the loop to end after the jobs already queued.
    func stop() {
        pending.withLock { $0.stopping = true }
        queued.add(1, ordering: .releasing)
        if !isOnLoopThread { wake() }
    }

    /// Interrupts `poll()` (`dbus_connection_set_wakeup_main_function`, cross-thread jobs).
    func wake() {
        wakeEvent.signal()
    }

    // MARK: libdbus watches and timeouts (loop thread, or before `start`)

    func addWatch(_ watch: OpaquePointer) {
        watches.append(watch)
    }

    func removeWatch(_ watch: OpaquePointer) {
        watches.removeAll { $0 == watch }
    }

    func addTimeout(_ timeout: OpaquePointer) {
        rearm(timeout)
    }

    func removeTimeout(_ timeout: OpaquePointer) {
        timeouts[timeout] = nil
    }

    /// (Re)starts the countdown of `timeout`: libdbus calls toggle when its interval restarts.
    func rearm(_ timeout: OpaquePointer) {
        timeouts[timeout] = MonotonicClock.milliseconds() + Int64(dbus_timeout_get_interval(timeout))
    }

    // MARK: The loop

    private func run() {
        loopThread.claim()
        while true {
            let stopping = runJobs()
            afterWork()
            if stopping { break }
            if hasJobs() { continue }
            pollOnce()
        }
        // Jobs queued before `stopping` was seen still run, so nobody waits forever.
        _ = runJobs()
        onStop()
    }

    /// Runs all queued jobs; returns whether the loop should stop.
    private func runJobs() -> Bool {
        guard queued.load(ordering: .acquiring) != 0 else { return false }
        let (jobs, stopping) = pending.withLock { state in
            queued.store(0, ordering: .relaxed)
            var jobs: [Job] = []
            swap(&jobs, &state.jobs)
            return (jobs, state.stopping)
        }
        for job in jobs { job() }
        return stopping
    }

    private func hasJobs() -> Bool {
        queued.load(ordering: .acquiring) != 0
    }

    private func pollOnce() {
        pollSet.removeAll(keepingCapacity: true)
        pollSet.append(wakeEvent.pollDescriptor)
        polled.removeAll(keepingCapacity: true)
        for watch in watches where dbus_watch_get_enabled(watch) != 0 {
            let flags = dbus_watch_get_flags(watch)
            var events: Int16 = 0
            if flags & CDBUS_WATCH_READABLE != 0 { events |= Int16(POLLIN) }
            if flags & CDBUS_WATCH_WRITABLE != 0 { events |= Int16(POLLOUT) }
            pollSet.append(pollfd(fd: dbus_watch_get_unix_fd(watch), events: events, revents: 0))
            polled.append(watch)
        }
        do throws(PosixError) {
            _ = try Poll.wait(&pollSet, timeoutMilliseconds: nextTimeoutMilliseconds())
        } catch {
            // Polling again would fail again: the connection ends, as when the bus goes away
            // (`tearDown` closes it; callers see `.disconnected` and failed calls).
            stop()
            return
        }
        if pollSet[0].revents != 0 {
            wakeEvent.drain()
        }
        for (index, watch) in polled.enumerated() {
            let revents = pollSet[index + 1].revents
            guard revents != 0, watches.contains(watch) else { continue }
            var flags: UInt32 = 0
            if revents & Int16(POLLIN) != 0 { flags |= CDBUS_WATCH_READABLE }
            if revents & Int16(POLLOUT) != 0 { flags |= CDBUS_WATCH_WRITABLE }
            if revents & Int16(POLLERR) != 0 { flags |= CDBUS_WATCH_ERROR }
            if revents & Int16(POLLHUP) != 0 { flags |= CDBUS_WATCH_HANGUP }
            dbus_watch_handle(watch, flags)
        }
        fireExpiredTimeouts()
    }

    /// Milliseconds until the earliest enabled libdbus timeout, or -1 (sleep until an fd is ready).
    private func nextTimeoutMilliseconds() -> Int32 {
        var earliest: Int64?
        for (timeout, deadline) in timeouts where dbus_timeout_get_enabled(timeout) != 0 {
            earliest = min(earliest ?? deadline, deadline)
        }
        guard let earliest else { return -1 }
        return Int32(clamping: max(0, earliest - MonotonicClock.milliseconds()))
    }

    private func fireExpiredTimeouts() {
        guard !timeouts.isEmpty else { return }
        let now = MonotonicClock.milliseconds()
        let expired = timeouts.filter { dbus_timeout_get_enabled($0.key) != 0 && $0.value <= now }.map(\.key)
        for timeout in expired where timeouts[timeout] != nil {
            rearm(timeout)
            dbus_timeout_handle(timeout)
        }
    }
}
