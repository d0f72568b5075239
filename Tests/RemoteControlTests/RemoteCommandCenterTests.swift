import RemoteControl
import TestSupport
import XCTest

/// G-RC-FAITHFUL: only enabled commands with a handler run; observers hear every change.
final class RemoteCommandCenterTests: XCTestCase {
    func testOnlyAvailableCommandsReachTheirHandler() {
        let center = RemoteCommandCenter()
        let calls = ValueBox<[RemoteCommandEvent]>([])
        let changes = ValueBox(0)
        center.addObserver { changes.value.withLock { $0 += 1 } }
        XCTAssertNil(center.perform(.play), "no handler: nothing runs")
        center.setHandler(.play) { event in
            calls.value.withLock { $0.append(event) }
            return .success
        }
        XCTAssertTrue(center.isAvailable(.play))
        XCTAssertEqual(center.perform(.play), .success)
        center.setEnabled(.play, false)
        XCTAssertFalse(center.isAvailable(.play))
        XCTAssertNil(center.perform(.play))
        center.setEnabled(.play, true)
        center.setHandler([.pause, .nextTrack]) { _ in .noSuchContent }
        XCTAssertEqual(center.perform(.nextTrack), .noSuchContent)
        XCTAssertEqual(center.availableCommands, [.play, .pause, .nextTrack])
        center.removeHandler(.pause)
        XCTAssertEqual(center.availableCommands, [.play, .nextTrack])
        XCTAssertEqual(calls.value.withLock { $0 }, [.play])
        XCTAssertEqual(changes.value.withLock { $0 }, 5)
    }
}
