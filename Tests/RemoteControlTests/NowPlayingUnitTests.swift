@testable import RemoteControl
import XCTest

/// Position extrapolation and the MPRIS spellings of the now-playing state.
final class NowPlayingUnitTests: XCTestCase {
    func testPositionIsExtrapolatedOnlyWhilePlayingAndClamped() {
        let start = MonotonicInstant(nanoseconds: 1_000_000_000)
        var info = NowPlayingInfo(item: NowPlayingItem(id: "a", duration: .seconds(10)), playbackState: .playing,
                                  elapsed: .seconds(2), at: start, rate: 1.5)
        XCTAssertEqual(info.position(at: start + .seconds(2)), .seconds(5))
        XCTAssertEqual(info.position(at: start + .seconds(100)), .seconds(10), "never past the end")
        info.playbackState = .paused
        XCTAssertEqual(info.position(at: start + .seconds(2)), .seconds(2))
        info.playbackState = .interrupted
        XCTAssertEqual(info.position(at: start + .seconds(2)), .seconds(2))
        info.playbackState = .playing
        info.setElapsed(.seconds(-3), at: start)
        XCTAssertEqual(info.position(at: start), .zero, "never before the start")
        XCTAssertEqual(Duration.seconds(180).microseconds, 180_000_000)
        XCTAssertEqual(Duration.milliseconds(-1500).microseconds, -1_500_000)
    }

    func testLoopStatusSpelling() {
        XCTAssertEqual(RepeatMode.allCases.map(\.loopStatus), ["None", "Track", "Playlist"])
        XCTAssertEqual(RepeatMode.allCases.map { RepeatMode(loopStatus: $0.loopStatus) }, RepeatMode.allCases)
        XCTAssertNil(RepeatMode(loopStatus: "none"))
    }
}
