import AudioPolicyClient
import DBus
import PolicyTestSupport
import SessionCore
import TestSupport
import XCTest

/// Where an app's session lives: with the daemon when one is on the bus, else in-process.
final class SessionBrokerTests: PolicyTestCase {
    func testWithoutADaemonTheSessionIsInProcess() throws {
        let fallback = AudioSystem()
        let placement = try SessionBroker.makeSession(on: try connect(), configuration: SessionConfiguration(.playback),
                                                      name: "alone", fallback: fallback)
        XCTAssertNil(placement.client)
        XCTAssertNil(placement.notice, "no daemon is not a failure worth a notice")
        XCTAssertTrue(placement.session is AudioSession)
        try placement.session.setActive(true, options: [])
        XCTAssertEqual(fallback.engine.activeSessions.count, 1, "the session is the fallback system's")
        guard case .failure = SessionBroker.daemonSession(on: try connect(), configuration: SessionConfiguration(),
                                                         name: "alone") else {
            return XCTFail("no daemon, no daemon session")
        }
    }

    func testWithADaemonTheSessionIsTheDaemons() throws {
        _ = try startDaemon()
        let fallback = AudioSystem()
        let placement = try SessionBroker.makeSession(on: try connect(), configuration: SessionConfiguration(.playback),
                                                      name: "brokered", fallback: fallback)
        defer { placement.client?.close() }
        XCTAssertNotNil(placement.client)
        XCTAssertTrue(placement.session is RemoteSession)
        XCTAssertEqual(try status().sessions.map(\.name), ["brokered"])
        XCTAssertEqual(fallback.engine.sessionIDs, [], "nothing was made in-process")
    }
}
