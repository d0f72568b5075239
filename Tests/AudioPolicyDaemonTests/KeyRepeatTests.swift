@testable import AudioPolicyDaemon
import Synchronization
import XCTest

/// A held key acts once: the presses of a toggle that follow within the window are its
/// auto-repeats, for as long as they keep coming; next and previous repeat; a second press after
/// the key was let go acts.
final class KeyRepeatTests: XCTestCase {
    /// A clock the test moves.
    private final class TestClock: Sendable {
        let start = ContinuousClock.now
        let elapsed = Mutex(Duration.zero)
        var now: ContinuousClock.Instant { start + elapsed.withLock { $0 } }
    }

    private let clock = TestClock()

    private func filter() -> KeyRepeat {
        KeyRepeat(now: { [clock] in clock.now })
    }

    private func advance(_ milliseconds: Int) {
        clock.elapsed.withLock { $0 += .milliseconds(milliseconds) }
    }

    func testAHeldToggleActsOnceHoweverLongItIsHeld() {
        let keys = filter()
        XCTAssertTrue(keys.admits(.playPause))
        advance(500)  // the first repeat, after the desktop's repeat delay
        XCTAssertFalse(keys.admits(.playPause))
        for _ in 0..<200 {  // then one every 30 ms for six seconds
            advance(30)
            XCTAssertFalse(keys.admits(.playPause))
        }
        advance(KeyRepeat.window.milliseconds)  // let go, then pressed again
        XCTAssertTrue(keys.admits(.playPause))
    }

    func testX11sLongerRepeatDelayIsStillARepeat() {
        let keys = filter()
        XCTAssertTrue(keys.admits(.stop))
        advance(660)
        XCTAssertFalse(keys.admits(.stop))
    }

    func testNextAndPreviousRepeatAsTheDesktopsOwnBindingsDo() {
        let keys = filter()
        for _ in 0..<5 {
            XCTAssertTrue(keys.admits(.next))
            advance(30)
        }
        XCTAssertTrue(keys.admits(.previous))
    }

    func testAnotherKeyIsNoRepeat() {
        let keys = filter()
        XCTAssertTrue(keys.admits(.play))
        advance(10)
        XCTAssertTrue(keys.admits(.pause), "Pause right after Play is a press of another key")
        advance(10)
        XCTAssertTrue(keys.admits(.play))
    }
}

private extension Duration {
    var milliseconds: Int { Int(components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000) }
}
