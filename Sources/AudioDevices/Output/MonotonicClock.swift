#if canImport(Glibc)
import Glibc
#endif

/// `CLOCK_MONOTONIC` in nanoseconds, and sleeping until a point on it.
enum MonotonicClock {
    /// `clock_gettime(CLOCK_MONOTONIC)`.
    static func nanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// `clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME)`: sleeps until `deadline`, resuming after
    /// signals. An absolute deadline does not drift however often the sleeper is woken.
    static func sleep(until deadline: Int64) {
        var target = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {}
    }
}
