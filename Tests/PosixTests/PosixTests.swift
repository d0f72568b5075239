import Posix
import Synchronization
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class NamedThreadTests: XCTestCase {
    /// The name is the thread's `comm` in /proc while the body runs, and `join` waits for the body.
    func testNameShowsInProcAndJoinWaits() throws {
        let seen = Mutex<String?>(nil)
        let thread = try NamedThread.start(name: "posix-test") {
            let comm = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
            seen.withLock { $0 = comm?.trimmingCharacters(in: .whitespacesAndNewlines) }
        }
        XCTAssertFalse(thread.isCurrent)
        thread.join()
        XCTAssertEqual(seen.withLock { $0 }, "posix-test")
    }

    /// Names longer than the kernel's 15 bytes are cut, not dropped.
    func testLongNameIsCutTo15Bytes() throws {
        let seen = Mutex<String?>(nil)
        let thread = try NamedThread.start(name: "mprisd-policy-events") {
            let comm = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
            seen.withLock { $0 = comm?.trimmingCharacters(in: .whitespacesAndNewlines) }
        }
        thread.join()
        XCTAssertEqual(seen.withLock { $0 }, "mprisd-policy-e")
    }

    /// A detached thread runs its body.
    func testDetachedThreadRuns() throws {
        let done = try WakeEvent()
        try NamedThread.detached(name: "posix-detached") { done.signal() }
        try done.wait()
    }
}

final class WakeEventTests: XCTestCase {
    /// A signal from another thread ends a `poll()` with no timeout; drain empties the counter.
    func testSignalWakesPoll() throws {
        let event = try WakeEvent()
        let sleeper = try NamedThread.start(name: "posix-sleeper") {
            var entry = event.pollDescriptor
            _ = poll(&entry, 1, -1)
        }
        usleep(20_000)
        event.signal()
        sleeper.join()  // returns only because poll() woke
        XCTAssertEqual(event.drain(), 1)
        XCTAssertEqual(event.drain(), 0, "drained: nothing left, and drain does not block")
    }

    /// Idle, the event is not readable; signals add up until drained and stay readable until then.
    func testSignalsAddUpAndStayReadable() throws {
        let event = try WakeEvent()
        var entry = event.pollDescriptor
        XCTAssertEqual(poll(&entry, 1, 0), 0)
        event.signal()
        event.signal()
        entry.revents = 0
        XCTAssertEqual(poll(&entry, 1, 0), 1)
        entry.revents = 0
        XCTAssertEqual(poll(&entry, 1, 0), 1, "a signal not drained keeps the event readable (a latch)")
        XCTAssertEqual(event.drain(), 2)
        entry.revents = 0
        XCTAssertEqual(poll(&entry, 1, 0), 0)
    }

    /// Non-blocking and close-on-exec.
    func testFlags() throws {
        let event = try WakeEvent()
        XCTAssertNotEqual(fcntl(event.fileDescriptor, F_GETFL) & O_NONBLOCK, 0)
        XCTAssertNotEqual(fcntl(event.fileDescriptor, F_GETFD) & FD_CLOEXEC, 0)
    }
}

final class MonotonicClockTests: XCTestCase {
    /// Readings never go back, and agree with each other in both units.
    func testMonotonic() {
        var last = MonotonicClock.nanoseconds()
        for _ in 0..<10_000 {
            let now = MonotonicClock.nanoseconds()
            XCTAssertGreaterThanOrEqual(now, last)
            last = now
        }
        let milliseconds = MonotonicClock.milliseconds()
        XCTAssertLessThanOrEqual(abs(milliseconds - MonotonicClock.nanoseconds() / 1_000_000), 1)
    }

    /// `sleep(untilNanoseconds:)` returns at or after the deadline, and at once for one in the past.
    func testSleepUntilDeadline() {
        let deadline = MonotonicClock.nanoseconds() + 20_000_000
        MonotonicClock.sleep(untilNanoseconds: deadline)
        XCTAssertGreaterThanOrEqual(MonotonicClock.nanoseconds(), deadline)
        let start = MonotonicClock.nanoseconds()
        MonotonicClock.sleep(untilNanoseconds: start - 1_000_000_000)
        XCTAssertLessThan(MonotonicClock.nanoseconds() - start, 50_000_000)
    }
}

final class LoopBoundTests: XCTestCase {
    /// The value is reachable on its loop's thread (once that thread claimed it) and recognized as
    /// out of reach elsewhere.
    func testAccessibleOnlyOnTheOwningThread() throws {
        let owner = OwningThread()
        let bound = LoopBound([1]) { owner.isCurrent }
        XCTAssertFalse(bound.isAccessible, "no thread claimed it yet")
        let seen = Mutex<[Int]>([])
        let thread = try NamedThread.start(name: "loop-bound") {
            owner.claim()
            bound.value.append(2)
            seen.withLock { $0 = bound.value }
        }
        thread.join()
        XCTAssertEqual(seen.withLock { $0 }, [1, 2])
        XCTAssertFalse(bound.isAccessible, "the test's thread is not the loop's")
    }
}
