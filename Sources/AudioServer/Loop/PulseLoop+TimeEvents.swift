import CPulse
import Posix
#if canImport(Glibc)
import Glibc
#endif

/// A timer (`pa_time_event`): due at `deadline` (nanoseconds of CLOCK_MONOTONIC), or disabled.
final class TimeEvent {
    /// nil: disabled.
    var deadline: Int64?
    /// The `timeval` libpulse gave (rtclock flag included), handed back to its callback.
    var requested = timeval()
    let handler: (TimeEvent) -> Void
    var destroy: (() -> Void)?
    var dead = false
    /// libpulse's `userdata` for its callbacks (nil for our own events).
    var cUserdata: UnsafeMutableRawPointer?
    weak var core: LoopCore?

    init(deadline: Int64?, handler: @escaping (TimeEvent) -> Void) {
        self.deadline = deadline
        self.handler = handler
    }
}

extension LoopCore {
    /// Adds a timer due at `deadline` (monotonic nanoseconds; nil: disabled).
    @discardableResult
    func timer(at deadline: Int64?, handler: @escaping (TimeEvent) -> Void) -> TimeEvent {
        let event = TimeEvent(deadline: deadline, handler: handler)
        event.core = self
        timers.append(event)
        return event
    }

    /// Frees a timer (`time_free`).
    func free(_ event: TimeEvent) {
        guard !event.dead else { return }
        event.dead = true
        event.deadline = nil
        hasDead = true
    }

    /// The `poll` timeout until the nearest enabled timer: rounded up to whole milliseconds (so the
    /// loop never wakes just before a deadline and spins), -1 when no timer is enabled.
    func pollTimeoutMilliseconds() -> Int32 {
        let nearest = timers.lazy.filter { !$0.dead }.compactMap(\.deadline).min()
        guard let nearest else { return -1 }
        let remaining = nearest - MonotonicClock.nanoseconds()
        if remaining <= 0 { return 0 }
        return Int32(clamping: (remaining + 999_999) / 1_000_000)
    }

    /// Fires every enabled timer that is due; each is disabled first (libpulse restarts it if it
    /// wants it again).
    func dispatchTimers() {
        let now = MonotonicClock.nanoseconds()
        let due = timers.filter { !$0.dead && ($0.deadline.map { $0 <= now } ?? false) }
        for event in due where !event.dead && event.deadline != nil {
            event.deadline = nil
            event.handler(event)
        }
    }

    /// A libpulse deadline in monotonic nanoseconds: with the rtclock flag in `tv_usec`
    /// (`cpulse_timeval_rtclock`) it is CLOCK_MONOTONIC already; without it, wall-clock time,
    /// converted once, now (as `pa_mainloop` does).
    static func monotonicDeadline(_ tv: timeval) -> Int64 {
        let flag = Int(cpulse_timeval_rtclock)
        let usec = tv.tv_usec
        if usec & flag != 0 {
            return Int64(tv.tv_sec) * 1_000_000_000 + Int64(usec & ~flag) * 1000
        }
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        let wallNow = Int64(wall.tv_sec) * 1_000_000_000 + Int64(wall.tv_nsec)
        let target = Int64(tv.tv_sec) * 1_000_000_000 + Int64(usec) * 1000
        return MonotonicClock.nanoseconds() + (target - wallNow)
    }
}
