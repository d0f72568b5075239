import Synchronization

/// At most `burst` log lines of one kind per `window`, so that a stranger calling in a loop
/// cannot fill the journal (issue 24: 5,000 refused calls to the headset object wrote 390 kB):
/// past the burst, lines are counted, not written, and the first line of the next window says
/// how many were left out. No timer: it is all decided when a line comes.
final class LogRateLimit: Sendable {
    typealias Clock = @Sendable () -> ContinuousClock.Instant

    private struct State {
        var windowStart: ContinuousClock.Instant?
        var written = 0
        var suppressed = 0
    }

    private let burst: Int
    private let window: Duration
    private let now: Clock
    private let state = Mutex(State())

    init(burst: Int = 5, per window: Duration = .seconds(60), now: @escaping Clock = { ContinuousClock.now }) {
        self.burst = burst
        self.window = window
        self.now = now
    }

    /// The line to write for `line` — with the count left out before it, when there is one — or
    /// nil while the window's burst is spent.
    func admit(_ line: String) -> String? {
        let time = now()
        return state.withLock { state in
            if let start = state.windowStart, time - start < window {
                guard state.written < burst else {
                    state.suppressed += 1
                    return nil
                }
            } else {
                state.windowStart = time
                state.written = 0
            }
            state.written += 1
            defer { state.suppressed = 0 }
            return state.suppressed == 0 ? line : line + " (\(state.suppressed) more like it not logged)"
        }
    }
}
