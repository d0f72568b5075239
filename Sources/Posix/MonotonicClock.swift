#if canImport(Glibc)
import Glibc
#endif

/// `CLOCK_MONOTONIC`: never jumps with the wall clock, stops while the machine sleeps, and reading
/// it starts no thread (no Swift-concurrency clock, no timer).
public enum MonotonicClock {
    /// Nanoseconds since an arbitrary origin (boot): `clock_gettime(CLOCK_MONOTONIC)`.
    public static func nanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// Whole milliseconds of `clock_gettime(CLOCK_MONOTONIC)` (the unit of `poll` timeouts).
    public static func milliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    /// `clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME)`: sleeps until `deadline` (nanoseconds on
    /// this clock), resuming after signals. An absolute deadline does not drift however often the
    /// sleeper is woken.
    public static func sleep(untilNanoseconds deadline: Int64) {
        var target = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {}
    }
}
