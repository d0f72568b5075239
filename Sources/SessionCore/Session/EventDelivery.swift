import Posix
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Where an `AudioSystem` delivers its sessions' events: one serial thread per system, so that a
/// handler never runs inside the call that caused its event. An app that keeps its
/// `PlaybackController` behind a lock, calls `setActive` under that lock and feeds `onEvent` back
/// into the controller only waits for the lock here; delivered on the caller's stack, the same
/// handler would lock it recursively.
///
/// The queue is filled under the engine's lock, in decision order, and emptied by the one thread
/// in that order: every session sees its events in the order the engine produced them, and an
/// interruption's *ended* never overtakes its *began*. The thread is Posix's `SerialThread`, started
/// with the first event; it sleeps between events (no timer, no wake-up while idle) and ends after
/// the last queued event once the system is gone.
final class EventDelivery: Sendable {
    /// One queued step: an event for a session's subscribers, or the end of a removed session's
    /// streams (queued behind its last event, so a stream never ends before it was delivered).
    enum Item: Sendable {
        case event(EventHub, SessionEvent)
        case finish(EventHub)
        /// New system conditions for an observer (`AudioSystem.onConditionsChange`).
        case conditions(@Sendable (SystemConditions) -> Void, SystemConditions)
    }

    private struct State {
        var queue: [Item] = []
        /// A drain job is queued on the thread, or running (inline: a caller is draining).
        var isDraining = false
        /// The thread draining now, so that a handler that waits for delivery does not wait for
        /// itself.
        var drainingThread: pthread_t?
        var thread: SerialThread?
        /// Starting a thread failed: events are delivered on the deciding thread, after the call.
        var isInline = false
        var waiters: [Latch<Void>] = []
    }

    private let state = Mutex(State())

    /// Queues `items` (called under the engine's lock, which fixes their order) and schedules one
    /// drain on the thread, starting it with the first event.
    func enqueue(_ items: [Item]) {
        guard !items.isEmpty else { return }
        let thread: SerialThread? = state.withLock { state in
            state.queue += items
            if state.thread == nil && !state.isInline {
                state.thread = try? SerialThread(name: "session-events")
                if state.thread == nil { state.isInline = true }
            }
            guard !state.isInline, !state.isDraining else { return nil }
            state.isDraining = true
            return state.thread
        }
        thread?.enqueue { [self] in drain() }
    }

    /// After the engine's lock is released: delivers here only if no thread could be started (a
    /// process out of threads), and then only from the outermost call.
    func deliverInlineIfNeeded() {
        let mine = state.withLock { state -> Bool in
            guard state.isInline, !state.isDraining, !state.queue.isEmpty else { return false }
            state.isDraining = true
            return true
        }
        if mine { drain() }
    }

    /// Blocks until every queued event has been delivered and no handler runs (events that
    /// handlers cause meanwhile included). Returns at once on the delivering thread itself, where
    /// waiting would never end, and when delivery is inline (it is then done when the call
    /// returns).
    func waitUntilDelivered() {
        let waiter = Latch<Void>()
        let mustWait = state.withLock { state -> Bool in
            if let draining = state.drainingThread, pthread_equal(draining, pthread_self()) != 0 { return false }
            if state.isInline { return false }
            guard state.isDraining || !state.queue.isEmpty else { return false }
            state.waiters.append(waiter)
            return true
        }
        if mustWait { waiter.wait() }
    }

    /// Lets the thread deliver what is queued, then end (the system is gone).
    func stop() {
        state.withLock { $0.thread }?.stop()
    }

    /// Delivers batches until the queue is empty, then releases the waiters.
    private func drain() {
        while true {
            let (batch, waiters) = state.withLock { state -> ([Item], [Latch<Void>]) in
                if state.queue.isEmpty {
                    state.isDraining = false
                    state.drainingThread = nil
                    defer { state.waiters = [] }
                    return ([], state.waiters)
                }
                state.drainingThread = pthread_self()
                defer { state.queue.removeAll(keepingCapacity: true) }
                return (state.queue, [])
            }
            guard !batch.isEmpty else {
                for waiter in waiters { waiter.open() }
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
