import AudioDevices
import Foundation
@testable import Player
import TestSupport
import XCTest

/// PlayPause from a media key pressed twice quickly: each toggle decides on the state the previous
/// one left, so an even number of presses always ends where it began.
final class PlayerToggleTests: XCTestCase {
    func testQuickTogglesAlwaysCancelOut() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("toggle-\(UUID().uuidString.prefix(6)).wav").path
        try WAVFile.writeCountingTone(seconds: 20, to: file)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let engine = try PlayerEngine(options: PlayOptions(), queue: PlayQueue(items: [MediaPath(file)]), sink: SilentOutput(),
                                      endpoint: nil, log: PlayerLog(status: StatusLine(isTerminal: false)))
        try engine.start()
        for _ in 0..<100 { engine.userToggle() }  // as fast as the D-Bus thread would hand them over
        engine.steps.enqueueAndWait {}
        XCTAssertEqual(engine.shared.withLock { $0.transport }, .playing, "100 toggles: back to playing")
        engine.userToggle()
        engine.steps.enqueueAndWait {}
        XCTAssertEqual(engine.shared.withLock { $0.transport }, .paused)
        engine.shutdown()
        var fds = pollfd(fd: engine.finishedFD, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&fds, 1, 5000), 1)
    }
}
