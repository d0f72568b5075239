import Posix
import Synchronization

/// Where an `AudioSystem` delivers its sessions' events: one serial thread per system, so that a
/// handler never runs inside the call that caused its event. An app that keeps its
/// `PlaybackController` behind a lock, calls `setActive` under that lock and feeds `onEvent` back
/// into the controller only waits for the lock here; delivered on the caller's stack, the same
/// handler would lock it recursively.
///
/// The queue is filled under the engine's lock, in decision order, and emptied by the one thread
/// in that order: every session sees its events in the order the engine produced them, and an
/// interruption's *ended* never overtakes its *began*. The thread starts with the first event and
/// sleeps in `poll()` on an eventfd between events (no timer, no wake-up while idle); it ends
/// after the last queued event once the system is gone.
final class EventDelivery: Sendable {
    /// One queued step: an event for a session's subscribers, or the end of a removed session's
    /// streams (queued behind its last event, so a stream never ends before it was delivered).
    enum Item: Sendable {
        case event(EventHub, SessionEvent)
        case finish(EventHub)
        /// New system conditions for an observer (`AudioSystem.onConditionsChange`).
        case conditions(@Sendable (SystemConditions) -> Void, SystemConditions)
    }

    private struct Worker: Sendable {
        let thread: NamedThread
        let wake: WakeEvent
    }

    private struct State {
        var queue: [Item] = []
        var isDelivering = false
        var worker: Worker?
        /// Starting a thread failed: events are delivered on the deciding thread, after the call.
        var isInline = false
        var isStopping = false
        var waiters: [WakeEvent] = []
    }

    private let state = Mutex(State())

    /// Queues `items` (called under the engine's lock, which fixes their order) and wakes the
    /// thread, starting it with the first event.
    func enqueue(_ items: [Item]) {
        guard !items.isEmpty else { return }
        let wake: WakeEvent? = state.withLock { state in
            state.queue += items
            if state.worker == nil && !state.isInline { state.worker = startWorker() }
            if state.worker == nil { state.isInline = true }
            return state.worker?.wake
        }
        wake?.signal()
    }

    /// After the engine's lock is released: delivers here only if no thread could be started (a
    /// process out of threads), and then only from the outermost call.
    func deliverInlineIfNeeded() {
        let mine = state.withLock { state -> Bool in
            guard state.isInline, !state.isDelivering, !state.queue.isEmpty else { return false }
            state.isDelivering = true
            return true
        }
        if mine { deliverUntilEmpty() }
    }

    /// Blocks until every queued event has been delivered and no handler runs (events that
    /// handlers cause meanwhile included). Returns at once on the delivery thread itself, where
    /// waiting would never end, and when delivery is inline (it is then done when the call
    /// returns).
    func waitUntilDelivered() {
        guard let waiter = try? WakeEvent() else { return }
        let mustWait = state.withLock { state -> Bool in
            if let worker = state.worker, worker.thread.isCurrent { return false }
            if state.isInline { return false }
            guard state.isDelivering || !state.queue.isEmpty else { return false }
            state.waiters.append(waiter)
            return true
        }
        // A failing wait (it cannot, short of a broken descriptor) returns: better a test or a
        // clean stop that proceeds than one that hangs.
        if mustWait { try? waiter.wait() }
    }

    /// Lets the thread deliver what is queued, then end (the system is gone).
    func stop() {
        let wake = state.withLock { state in
            state.isStopping = true
            return state.worker?.wake
        }
        wake?.signal()
    }

    private func startWorker() -> Worker? {
        guard let wake = try? WakeEvent() else { return nil }
        let thread = try? NamedThread.start(name: "session-events") { [self] in
            run(wake)
        }
        guard let thread else { return nil }
        thread.detach()
        return Worker(thread: thread, wake: wake)
    }

    /// The thread's body: sleep until woken, deliver everything queued, end once stopping. A wait
    /// that fails (Posix's rule: never spin) ends the thread; delivery then happens inline, on the
    /// deciding thread after each call, as when no thread could be started.
    private func run(_ wake: WakeEvent) {
        while true {
            do throws(PosixError) {
                try wake.wait()
            } catch {
                state.withLock { state in
                    state.worker = nil
                    state.isInline = true
                }
                deliverUntilEmpty()
                return
            }
            let stopping = state.withLock { $0.isStopping }
            deliverUntilEmpty()
            if stopping { return }
        }
    }

    /// Delivers batches until the queue is empty, then releases the waiters.
    private func deliverUntilEmpty() {
        while true {
            let (batch, waiters) = state.withLock { state -> ([Item], [WakeEvent]) in
                if state.queue.isEmpty {
                    state.isDelivering = false
                    defer { state.waiters = [] }
                    return ([], state.waiters)
                }
                state.isDelivering = true
                defer { state.queue.removeAll(keepingCapacity: true) }
                return (state.queue, [])
            }
            guard !batch.isEmpty else {
                for waiter in waiters { waiter.signal() }
                return
            }
            for item in batch {
                switch item {
                case .event(let hub, let event): hub.deliver(event)
                case .finish(let hub): hub.finish()
                case .conditions(let observer, let conditions): observer(conditions)
                }
            }
        }
    }
}
