import AudioPolicyDaemon
import Foundation
import Synchronization

/// A clock a test drives, for the policy's timed decisions (`PolicyClock`): time stands still
/// until `advance`, which moves it and runs the jobs that came due, earliest first, on the
/// caller's thread — so a five-second grace is crossed in no time, and a test can stand one
/// millisecond before it and one after (swift-nio's `EmbeddedEventLoop` does this for its loops).
public final class VirtualClock: Sendable {
    private struct Job {
        var number: UInt64
        var due: ContinuousClock.Instant
        var run: @Sendable () -> Void
    }

    private struct State {
        var now: ContinuousClock.Instant
        var nextNumber: UInt64 = 0
        var jobs: [Job] = []
    }

    private let state: Mutex<State>
    private let origin: ContinuousClock.Instant
    private let originDate: Date

    /// Starts at `start` (any instant: only differences matter), which is `date` as a date.
    public init(start: ContinuousClock.Instant = .now, date: Date = Date()) {
        state = Mutex(State(now: start))
        origin = start
        originDate = date
    }

    /// The time now as a date: `date` of `init` moved on as far as the clock was.
    public var date: Date {
        let (seconds, attoseconds) = (now - origin).components
        return originDate.addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
    }

    /// The time now on this clock.
    public var now: ContinuousClock.Instant {
        state.withLock { $0.now }
    }

    /// The jobs waiting (not yet due, not cancelled).
    public var pendingJobs: Int {
        state.withLock { $0.jobs.count }
    }

    /// The clock to give the policy.
    public var policyClock: PolicyClock {
        PolicyClock(now: { [self] in now }, date: { [self] in date }, after: { [self] delay, job in schedule(delay, job) })
    }

    /// Moves time on by `duration`, running each job that comes due at its own time (a job that
    /// schedules another within the span sees it run too).
    public func advance(by duration: Duration) {
        let end = state.withLock { $0.now } + duration
        while let job = takeDue(before: end) { job() }
        state.withLock { $0.now = end }
    }

    private func takeDue(before end: ContinuousClock.Instant) -> (@Sendable () -> Void)? {
        state.withLock { state in
            guard let index = state.jobs.indices.min(by: { state.jobs[$0].due < state.jobs[$1].due }),
                  state.jobs[index].due <= end else { return nil }
            let job = state.jobs.remove(at: index)
            state.now = max(state.now, job.due)
            return job.run
        }
    }

    private func schedule(_ delay: Duration, _ job: @escaping @Sendable () -> Void) -> PolicyTimer {
        let number = state.withLock { state in
            state.nextNumber += 1
            state.jobs.append(Job(number: state.nextNumber, due: state.now + max(delay, .zero), run: job))
            return state.nextNumber
        }
        return PolicyTimer { [weak self] in
            self?.state.withLock { state in state.jobs.removeAll { $0.number == number } }
        }
    }
}
