import Posix
import Foundation
import XCTest

/// The one-shot hand-over between threads that blocking calls wait on.
final class LatchTests: XCTestCase {
    func testWaitReturnsTheValueOpenedOnAnotherThread() {
        let latch = Latch<Int>()
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.05)
            latch.open(with: 7)
        }
        XCTAssertEqual(latch.wait(), 7)
    }

    func testOnlyTheFirstOpenCountsAndItStaysOpen() {
        let latch = Latch<String>()
        latch.open(with: "first")
        latch.open(with: "second")
        XCTAssertEqual(latch.wait(), "first")
        XCTAssertEqual(latch.wait(), "first")
        XCTAssertEqual(latch.wait(timeout: .zero), "first")
    }

    func testTimedWaitGivesUpAfterTheTimeout() {
        let latch = Latch<Void>()
        let start = ContinuousClock.now
        XCTAssertNil(latch.wait(timeout: .milliseconds(100)))
        let waited = ContinuousClock.now - start
        XCTAssertGreaterThanOrEqual(waited, .milliseconds(100))
        XCTAssertLessThan(waited, .seconds(2))
        XCTAssertNil(latch.wait(timeout: .seconds(-1)))
    }

    func testTimedWaitReturnsOnceOpened() {
        let latch = Latch<Void>()
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.05)
            latch.open()
        }
        let start = ContinuousClock.now
        XCTAssertNotNil(latch.wait(timeout: .seconds(10)))
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(5))
        XCTAssertNotNil(latch.wait(timeout: .seconds(Int64.max)))
    }
}
