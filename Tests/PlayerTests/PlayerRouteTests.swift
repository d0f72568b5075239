import AudioDevices
import Foundation
@testable import Player
import SessionCore
import TestSupport
import XCTest

/// The engine follows route changes through the session's rules: pause when the headphones go
/// (G-HEADPHONES-OUT), keep playing when they come (G-HEADPHONES-IN).
final class PlayerRouteTests: XCTestCase {
    private var file: String!

    override func setUpWithError() throws {
        file = FileManager.default.temporaryDirectory.appendingPathComponent("route-\(UUID().uuidString.prefix(6)).wav").path
        try WAVFile.writeCountingTone(seconds: 20, to: file)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: file)
    }

    /// The transport once the session's events are delivered and every queued session step ran
    /// (events arrive on the system's event thread, steps run on the engine's own thread).
    private func transport(_ engine: PlayerEngine) -> Transport {
        engine.system.waitForDelivery()
        engine.steps.enqueueAndWait {}
        return engine.shared.withLock { $0.transport }
    }

    func testUnplugPausesAndPlugInDoesNot() async throws {
        let engine = try PlayerEngine(options: PlayOptions(), queue: PlayQueue(items: [MediaPath(file)]), sink: SilentOutput(),
                                      endpoint: nil, log: PlayerLog(status: StatusLine(isTerminal: false)))
        let headphones = AudioPort(id: "jack:Headphone", name: "Headphone", type: .headphones)
        engine.portsConnected([headphones])
        try engine.start()
        XCTAssertEqual(transport(engine), .playing)

        engine.portsConnected([AudioPort(id: "bt:1", name: "Headset", type: .bluetoothA2DP)])
        XCTAssertEqual(transport(engine), .playing, "a new output never pauses")

        XCTAssertEqual(engine.session.currentRoute.outputs.first?.id, "bt:1", "the new headset takes the route")
        engine.portsDisconnected(["bt:1"])
        XCTAssertEqual(transport(engine), .paused, "losing the current output pauses at once")
        XCTAssertTrue(engine.session.isActive, "the session stays active (G-APP-MEDIA)")

        engine.userPlay()
        XCTAssertEqual(transport(engine), .playing, "the user resumes when ready")
        engine.shutdown()
        var fds = pollfd(fd: engine.finishedFD, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&fds, 1, 5000), 1, "the engine finishes after shutdown")
    }
}
