import CPulse
import Posix
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The thread libpulse runs on: our own `pa_mainloop_api` (the vtable is built in Swift, in
/// `PulseLoop+API.swift`: the api struct's `userdata` leads every C callback back to its loop, so
/// no C shim is needed) on ONE thread named "mprisd-pulse" that sleeps in `poll()` on the io
/// events' descriptors and a `WakeEvent`, with the timeout of the nearest enabled time event.
/// Enabled defer events run before it sleeps (then it does not sleep). No libpulse thread exists.
///
/// Every libpulse call happens on that thread: other threads `post` closures to it. While nothing
/// happens on the descriptors and no timer is due, the thread never wakes (zero wake-ups idle).
public final class PulseLoop: Sendable {
    let core: LoopCore
    private let queue: PostQueue
    private let thread = Mutex<NamedThread?>(nil)
    private let owner = OwningThread()

    public init() throws(PosixError) {
        queue = PostQueue(wake: try WakeEvent())
        core = LoopCore()
    }

    /// Starts the thread (once).
    public func start() throws(PosixError) {
        let core = self.core
        let owner = self.owner
        let queue = self.queue
        try thread.withLock { (slot: inout NamedThread?) throws(PosixError) in
            guard slot == nil else { return }
            slot = try NamedThread.start(name: "mprisd-pulse") {
                owner.claim()
                PulseLoop.run(core, queue)
            }
        }
    }

    /// Runs `work` on the loop's thread (soon; in the order posted). From the loop's own thread
    /// too: it then runs in the next round, after the current callback returned.
    public func post(_ work: @escaping @Sendable () -> Void) {
        queue.append(work)
    }

    /// Whether the caller runs on the loop's thread.
    public var isCurrent: Bool { owner.isCurrent }

    /// Runs `last` on the thread, ends the loop and joins the thread (from the thread itself: the
    /// loop ends after the current round and the thread is detached). Idempotent.
    public func stop(last: @escaping @Sendable () -> Void = {}) {
        guard let running = thread.withLock({ slot -> NamedThread? in
            defer { slot = nil }
            return slot
        }) else { return }
        let core = self.core
        post {
            last()
            core.quit = true
        }
        if running.isCurrent { running.detach() } else { running.join() }
    }

    deinit {
        stop()
    }

    /// The loop: posted work, defer events, then `poll` until a descriptor, the wake event or the
    /// nearest timer; a failing `poll` ends it (`Poll`'s rule: it would fail again at once).
    private static func run(_ core: LoopCore, _ queue: PostQueue) {
        let wake = queue.wake
        while !core.quit {
            queue.runAll()
            core.dispatchDefers()
            core.collectGarbage()
            if core.quit { break }
            var descriptors = core.pollDescriptors() + [wake.pollDescriptor]
            let timeout = core.hasEnabledDefers ? 0 : core.pollTimeoutMilliseconds()
            do throws(PosixError) {
                _ = try Poll.wait(&descriptors, timeoutMilliseconds: timeout)
            } catch {
                core.failure = error
                break
            }
            if descriptors[descriptors.count - 1].revents != 0 { wake.drain() }
            core.dispatchIO(descriptors.dropLast())
            core.dispatchTimers()
            core.collectGarbage()
        }
        queue.runAll()
        core.tearDown()
    }
}

/// Closures posted to the loop from any thread, and the eventfd that wakes it for them.
private final class PostQueue: Sendable {
    let wake: WakeEvent
    private let work = Mutex<[@Sendable () -> Void]>([])

    init(wake: WakeEvent) {
        self.wake = wake
    }

    func append(_ item: @escaping @Sendable () -> Void) {
        work.withLock { $0.append(item) }
        wake.signal()
    }

    /// Runs what was posted, and what that posted, until nothing is left.
    func runAll() {
        while true {
            let items = work.withLock { queue -> [@Sendable () -> Void] in
                defer { queue.removeAll() }
                return queue
            }
            if items.isEmpty { return }
            for item in items { item() }
        }
    }
}

/// The loop's state: its events, touched only on the loop's thread — by `run` and by the vtable's
/// C callbacks, which libpulse calls only from code running there.
final class LoopCore: @unchecked Sendable {  // invariant: every member is touched only on the loop's thread (after start)
    var io: [IOEvent] = []
    /// The io events of the last `pollDescriptors()`, in its order.
    var polledIO: [IOEvent] = []
    var timers: [TimeEvent] = []
    var defers: [DeferEvent] = []
    var quit = false
    var failure: PosixError?
    /// Whether some event died since the last collection.
    var hasDead = false
    /// The vtable handed to libpulse; its `userdata` is this core.
    let api: UnsafeMutablePointer<pa_mainloop_api>

    init() {
        api = .allocate(capacity: 1)
        api.initialize(to: pa_mainloop_api())
        installVTable()
    }

    deinit {
        api.deinitialize(count: 1)
        api.deallocate()
    }

    /// Drops dead events, calling their destroy callbacks (as `pa_mainloop` does: after the round,
    /// never inside a dispatch that may still reach them).
    func collectGarbage() {
        guard hasDead else { return }
        hasDead = false
        let deadIO = io.filter(\.dead)
        io.removeAll(where: \.dead)
        let deadTimers = timers.filter(\.dead)
        timers.removeAll(where: \.dead)
        let deadDefers = defers.filter(\.dead)
        defers.removeAll(where: \.dead)
        for event in deadIO { event.destroy?() }
        for event in deadTimers { event.destroy?() }
        for event in deadDefers { event.destroy?() }
        if hasDead { collectGarbage() }
    }

    /// At the end of the thread: every event still alive is freed (destroy callbacks run).
    func tearDown() {
        for event in io { event.dead = true }
        for event in timers { event.dead = true }
        for event in defers { event.dead = true }
        hasDead = true
        collectGarbage()
    }
}
