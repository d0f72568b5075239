@testable import RemoteControl
import XCTest

/// The name state machine alone: one operation at a time, the last wish wins, the instance name
/// on a clash.
final class AudioContextGateUnitTests: XCTestCase {
    private let primary = "org.mpris.MediaPlayer2.app"
    private let instance = "org.mpris.MediaPlayer2.app.instance7"

    func testOneOperationAtATimeAndTheLastWishWins() {
        var gate = AudioContextGate(primary: primary, instance: instance)
        XCTAssertEqual(gate.next(wanted: false), nil)
        XCTAssertEqual(gate.next(wanted: true), .request(primary))
        // Stop and start again while the request is in flight: nothing more is sent.
        XCTAssertEqual(gate.next(wanted: false), nil)
        XCTAssertEqual(gate.next(wanted: true), nil)
        XCTAssertEqual(gate.next(wanted: false), nil)
        gate.requestFinished(primary, .success(true))
        XCTAssertEqual(gate.ownedName, primary)
        // The last wish was "not wanted": release now, and nothing else until it is done.
        XCTAssertEqual(gate.next(wanted: false), .release(primary))
        XCTAssertTrue(gate.isReleasing)
        XCTAssertEqual(gate.next(wanted: true), nil)
        gate.releaseFinished(primary)
        XCTAssertEqual(gate.next(wanted: true), .request(primary))
    }

    func testClashUsesTheInstanceNameThenGivesUp() {
        var gate = AudioContextGate(primary: primary, instance: instance)
        XCTAssertEqual(gate.next(wanted: true), .request(primary))
        gate.requestFinished(primary, .success(false))
        XCTAssertEqual(gate.next(wanted: true), .request(instance))
        gate.requestFinished(instance, .success(false))
        XCTAssertNotNil(gate.failure)
        XCTAssertEqual(gate.next(wanted: true), nil, "no retry loop")
        // Leaving and re-entering tries again, primary first.
        XCTAssertEqual(gate.next(wanted: false), nil)
        XCTAssertEqual(gate.next(wanted: true), .request(primary))
    }

    func testErrorsAndLostNames() {
        var gate = AudioContextGate(primary: primary, instance: instance)
        _ = gate.next(wanted: true)
        gate.requestFinished(primary, .failure(.init(message: "Disconnected")))
        XCTAssertEqual(gate.phase, .idle)
        XCTAssertEqual(gate.next(wanted: true), nil)
        _ = gate.next(wanted: false)
        XCTAssertEqual(gate.next(wanted: true), .request(primary))
        gate.requestFinished(primary, .success(true))
        gate.nameLost(primary)
        XCTAssertNil(gate.ownedName)
        // Stale answers for names not being asked for are ignored.
        gate.requestFinished(instance, .success(true))
        XCTAssertNil(gate.ownedName)
    }
}
