import Posix
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The one rule of every poll loop: a signal is no failure, any other failing `poll` ends the loop
/// and is reported, never retried at once (which would spin a core).
///
/// `poll` fails with `EINVAL` when asked for more descriptors than `RLIMIT_NOFILE` allows: the
/// tests lower the limit for a moment to make it fail for real.
final class PollTests: XCTestCase {
    func testAFailingPollIsThrown() throws {
        let event = try WakeEvent()
        var entries = [event.pollDescriptor, event.pollDescriptor]
        let outcome = withDescriptorLimit(1) { () -> PosixError? in
            do throws(PosixError) {
                _ = try Poll.wait(&entries, timeoutMilliseconds: 0)
                return nil
            } catch {
                return error
            }
        }
        XCTAssertEqual(outcome, PosixError("poll", code: EINVAL))
    }

    /// A thread waiting on a `WakeEvent` whose poll fails gets the error instead of spinning.
    func testWakeEventWaitEndsOnAFailingPoll() throws {
        let event = try WakeEvent()
        let result = Latch<PosixError?>()
        let outcome = withDescriptorLimit(0) { () -> PosixError?? in
            try? NamedThread.detached(name: "poll-fails") {
                do throws(PosixError) {
                    try event.wait()
                    result.open(with: nil)
                } catch {
                    result.open(with: error)
                }
            }
            return result.wait(timeout: .seconds(2))
        }
        XCTAssertEqual(outcome, .some(PosixError("poll", code: EINVAL)), "the wait neither ended nor reported")
    }

    /// A `PollThread` whose poll fails ends and hands the error to `finish`.
    func testPollThreadReportsTheFailureThatEndedIt() throws {
        let readable = try WakeEvent()
        let finished = Latch<PosixError?>()
        let thread = try PollThread(name: "poll-fails", descriptors: [readable.pollDescriptor], work: .init(handle: { _ in
            readable.drain()
            return true
        }, finish: { finished.open(with: $0) }))
        defer { thread.stop() }
        let outcome = withDescriptorLimit(1) { () -> PosixError?? in
            readable.signal()  // wakes the thread if it is asleep already: its next poll fails
            return finished.wait(timeout: .seconds(2))
        }
        XCTAssertEqual(outcome, .some(PosixError("poll", code: EINVAL)))
    }

    /// Runs `body` with the soft `RLIMIT_NOFILE` at `limit`, restored afterwards.
    private func withDescriptorLimit<T>(_ limit: rlim_t, _ body: () -> T) -> T {
        var saved = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &saved)
        var lowered = saved
        lowered.rlim_cur = limit
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &lowered)
        defer { setrlimit(Int32(RLIMIT_NOFILE.rawValue), &saved) }
        return body()
    }
}

/// Signals read from a descriptor, next to other descriptors in one `poll()`.
final class SignalDescriptorTests: XCTestCase {
    func testASignalToTheThreadIsReadNotDelivered() throws {
        var previous = sigset_t()
        pthread_sigmask(SIG_SETMASK, nil, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let signals = try SignalDescriptor([SIGUSR1])
        XCTAssertEqual(signals.take(), [])
        let other = try WakeEvent()
        pthread_kill(pthread_self(), SIGUSR1)
        XCTAssertEqual(try signals.wait(orReadable: other.fileDescriptor), SIGUSR1)
        other.signal()
        XCTAssertNil(try signals.wait(orReadable: other.fileDescriptor), "the other descriptor woke it")
        XCTAssertNotEqual(fcntl(signals.fileDescriptor, F_GETFD) & FD_CLOEXEC, 0)
    }
}
