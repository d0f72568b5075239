import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One thread that runs jobs in the order they were queued: where work that must not run on an
/// I/O thread (because it blocks, or calls back into what that thread serves) goes, always in
/// order. A `PolicyClient` delivers session events on one; the player runs its session steps on
/// one, since its remote commands arrive on the connection's I/O thread.
///
/// Idle, it sleeps in `sem_wait`: no timer, no Swift concurrency, no wake-up.
public final class SerialThread: Sendable {
    private let jobs = SerialJobs()

    /// Starts the thread, named `name` (cut to 15 bytes in `/proc/PID/task/TID/comm`); throws
    /// when the system cannot start one more thread.
    public init(name: String) throws(PosixError) {
        let jobs = self.jobs
        try NamedThread.detached(name: name) { jobs.run() }
    }

    /// Queues `job`; dropped once the thread was stopped.
    public func enqueue(_ job: @escaping @Sendable () -> Void) {
        jobs.enqueue(job)
    }

    /// Queues `job` and blocks until it ran (or was dropped because the thread stopped). Never
    /// from the thread itself.
    public func enqueueAndWait(_ job: @escaping @Sendable () -> Void) {
        let done = Latch<Bool>()
        jobs.enqueue({
            job()
            done.open(with: true)
        }, dropped: { done.open(with: false) })
        _ = done.wait()
    }

    /// Lets the thread finish the jobs already queued, then end. Idempotent.
    public func stop() {
        jobs.stop()
    }
}

/// The jobs of a `SerialThread` and the semaphore counting them.
private final class SerialJobs: @unchecked Sendable {  // invariant: `semaphore` is set up in init, used only through the thread-safe sem_* calls and destroyed in deinit, when neither the thread (which holds a reference) nor anyone else uses it; the rest behind a Mutex
    private let semaphore: UnsafeMutablePointer<sem_t>
    private let state = Mutex<(jobs: [@Sendable () -> Void], stopping: Bool)>(([], false))

    init() {
        semaphore = .allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
    }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    func enqueue(_ job: @escaping @Sendable () -> Void, dropped: @Sendable () -> Void = {}) {
        let accepted = state.withLock { state -> Bool in
            guard !state.stopping else { return false }
            state.jobs.append(job)
            return true
        }
        if accepted { sem_post(semaphore) } else { dropped() }
    }

    func stop() {
        let first = state.withLock { state -> Bool in
            defer { state.stopping = true }
            return !state.stopping
        }
        if first { sem_post(semaphore) }
    }

    /// The thread's body: one job per post; returns after `stop` once the queue is empty. `sem_wait`
    /// fails only when a signal interrupts it (`EINTR`), after which it waits again.
    func run() {
        while true {
            guard sem_wait(semaphore) == 0 else { continue }
            let (job, done) = state.withLock { state -> ((@Sendable () -> Void)?, Bool) in
                if !state.jobs.isEmpty { return (state.jobs.removeFirst(), false) }
                return (nil, state.stopping)
            }
            job?()
            if done { return }
        }
    }
}
