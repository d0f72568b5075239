#if canImport(Glibc)
import Glibc
#endif

/// Milliseconds of `CLOCK_MONOTONIC`, the clock libdbus timeouts are measured against.
enum MonotonicClock {
    static func milliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
