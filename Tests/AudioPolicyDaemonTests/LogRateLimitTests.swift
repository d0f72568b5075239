@testable import AudioPolicyDaemon
import Synchronization
import XCTest

/// A few lines a window, the rest counted and said with the first line of the next window.
final class LogRateLimitTests: XCTestCase {
    func testABurstAWindowThenTheCountOfWhatWasLeftOut() {
        let start = ContinuousClock.now
        let elapsed = Mutex(Duration.zero)
        let limit = LogRateLimit(burst: 2, per: .seconds(60), now: { start + elapsed.withLock { $0 } })
        XCTAssertEqual(limit.admit("a"), "a")
        XCTAssertEqual(limit.admit("b"), "b")
        XCTAssertNil(limit.admit("c"))
        elapsed.withLock { $0 = .seconds(59) }
        XCTAssertNil(limit.admit("d"), "still the same window")
        elapsed.withLock { $0 = .seconds(60) }
        XCTAssertEqual(limit.admit("e"), "e (2 more like it not logged)")
        XCTAssertEqual(limit.admit("f"), "f", "the count is said once")
        XCTAssertNil(limit.admit("g"))
        elapsed.withLock { $0 = .seconds(200) }
        XCTAssertEqual(limit.admit("h"), "h (1 more like it not logged)")
    }
}
