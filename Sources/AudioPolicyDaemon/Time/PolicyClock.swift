import AudioServer
import FoundationEssentials

/// The time the policy's timed decisions read and wait on: the call's graces and minimum time, a
/// new stream's wait for its player's claim and its first second of settling (`CallTiming`,
/// `StreamPolicy.serverSettling`), a player's streams gone for ten minutes (`PlayerArbiter`).
///
/// The daemon's is `live(link)`: `ContinuousClock` (monotonic, not the wall clock), and timers on
/// the audio-server link's loop, the thread that already sleeps in `poll()` for the server — so a
/// pending decision costs one timer there and an idle daemon still wakes up zero times a second.
/// A test gives a clock it drives instead (PolicyTestSupport's `VirtualClock`, as swift-nio's
/// `EmbeddedEventLoop` does for its loops): time stands still until the test moves it, and the
/// five seconds of a corked call's grace take no time at all.
public struct PolicyClock: Sendable {
    /// Runs `job` once `delay` has passed (on the clock's own thread), nil where it cannot
    /// (the link is not running).
    public typealias Schedule = @Sendable (_ delay: Duration, _ job: @escaping @Sendable () -> Void) -> PolicyTimer?

    /// Now.
    public let now: @Sendable () -> ContinuousClock.Instant
    /// Now as a date, for what is shown to a person (`mprisd players`' "streams gone since 10:42")
    /// and ordered by it; it moves with `now`.
    public let date: @Sendable () -> Date
    /// Runs a job after a delay.
    public let after: Schedule

    public init(now: @escaping @Sendable () -> ContinuousClock.Instant, date: @escaping @Sendable () -> Date,
                after: @escaping Schedule) {
        self.now = now
        self.date = date
        self.after = after
    }

    /// Real time, with timers on `link`'s loop.
    public static func live(_ link: AudioServerLink) -> PolicyClock {
        PolicyClock(now: { ContinuousClock.now }, date: { Date() }, after: { [weak link] delay, job in
            guard let timer = link?.after(delay, job) else { return nil }
            return PolicyTimer { timer.cancel() }
        })
    }
}

/// A job a `PolicyClock` will run, until cancelled.
public final class PolicyTimer: Sendable {
    private let cancellation: @Sendable () -> Void

    public init(cancel: @escaping @Sendable () -> Void) {
        cancellation = cancel
    }

    /// The job will not run (if it has not yet). Idempotent.
    public func cancel() {
        cancellation()
    }
}
