import Posix
import Synchronization

/// A job of ours due at a time on the loop's thread: a time event of the loop like libpulse's own,
/// so waiting costs no thread and no wake-up before the deadline. `cancel` frees the event (on
/// the loop's thread, in its next round); a job that was due already does not run after it.
public final class LoopTimer: Sendable {
    private let cancelled = Atomic<Bool>(false)
    /// The loop's event, once the loop made it.
    private let slot: TimeEventSlot
    private let loop: PulseLoop

    fileprivate init(loop: PulseLoop, slot: TimeEventSlot) {
        self.loop = loop
        self.slot = slot
    }

    /// The job will not run (if it has not begun already). Idempotent; any thread.
    public func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let slot = self.slot
        let core = loop.core
        loop.post { slot.event.map(core.free) }
    }

    fileprivate var isCancelled: Bool { cancelled.load(ordering: .acquiring) }
}

/// Holds the loop's time event for its `LoopTimer`.
private final class TimeEventSlot: @unchecked Sendable {  // invariant: `event` is read and written only on the loop's thread (in closures posted to it)
    var event: TimeEvent?
}

extension PulseLoop {
    /// Runs `job` on the loop's thread once `delay` has passed (at the next round after it; the
    /// deadline is CLOCK_MONOTONIC). Cancel it with the returned timer.
    public func after(_ delay: Duration, _ job: @escaping @Sendable () -> Void) -> LoopTimer {
        let slot = TimeEventSlot()
        let timer = LoopTimer(loop: self, slot: slot)
        let core = self.core
        let (seconds, attoseconds) = max(delay, .zero).components
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        let deadline = MonotonicClock.nanoseconds() + nanoseconds
        post {
            guard !timer.isCancelled else { return }
            slot.event = core.timer(at: deadline) { event in
                core.free(event)
                slot.event = nil
                if !timer.isCancelled { job() }
            }
        }
        return timer
    }
}
