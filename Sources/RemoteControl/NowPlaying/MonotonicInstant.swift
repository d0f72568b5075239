import Posix

/// A reading of `CLOCK_MONOTONIC`: the clock the playback position is extrapolated against.
///
/// It stops while the machine sleeps (so does audio), never jumps with the wall clock, and reading
/// it starts no thread (no Swift-concurrency clock, no timer).
public struct MonotonicInstant: Sendable, Hashable, Comparable {
    /// Nanoseconds since an arbitrary origin (boot).
    public let nanoseconds: Int64

    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// The current instant.
    public static var now: MonotonicInstant {
        MonotonicInstant(nanoseconds: MonotonicClock.nanoseconds())
    }

    /// The time from `earlier` to `self`.
    public func duration(since earlier: MonotonicInstant) -> Duration {
        .nanoseconds(nanoseconds &- earlier.nanoseconds)
    }

    public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    public static func + (lhs: MonotonicInstant, rhs: Duration) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: lhs.nanoseconds &+ rhs.nanosecondsClamped)
    }
}

extension Duration {
    /// Whole nanoseconds, saturating at the bounds of `Int64`.
    var nanosecondsClamped: Int64 {
        // `components` traps beyond Int64 seconds (a Duration holds more).
        if self >= .seconds(Int64.max) { return .max }
        if self <= .seconds(Int64.min) { return .min }
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, overflow2) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        if overflow2 { return seconds < 0 ? .min : .max }
        return sum
    }

    /// Whole microseconds (MPRIS `Time_In_Us`), saturating.
    public var microseconds: Int64 {
        // `components` traps beyond Int64 seconds (a Duration holds more).
        if self >= .seconds(Int64.max) { return .max }
        if self <= .seconds(Int64.min) { return .min }
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, overflow2) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000_000)
        if overflow2 { return seconds < 0 ? .min : .max }
        return sum
    }
}
