import Foundation
import TestSupport
import XCTest

/// The end of the queue is a normal end, every time: the player closing its own connection to the
/// session bus must never be taken for the bus going away (which prints a message and exits 1).
final class PlayEndOfQueueTests: PlayerTestCase {
    func testManyShortPlaysEndCleanly() async throws {
        let file = try track("tick.wav", seconds: 0.1)
        let started = ContinuousClock.now
        for run in 0..<50 {
            let player = try play(["--device", "null", "--name", "tick", file])
            let status = await player.waitForExit()
            XCTAssertEqual(status, 0, "run \(run): \(player.stderr)")
            XCTAssertFalse(player.stderr.contains("went away"), "run \(run): \(player.stderr)")
        }
        print("end of queue: 50 plays in \(ContinuousClock.now - started)")
    }
}
