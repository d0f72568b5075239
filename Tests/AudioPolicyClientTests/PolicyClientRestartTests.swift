import AudioPolicyClient
import DBus
import Foundation
import PolicyTestSupport
import SessionCore
import TestSupport
import XCTest

/// A client survives the daemon: lost, then reset and registered again.
final class PolicyClientRestartTests: PolicyTestCase {
    func testClientsAreResetAndRegisteredAgainWhenTheDaemonRestarts() async throws {
        let first = try startDaemon()
        let client = try makeClient()
        XCTAssertTrue(PolicyClient.isDaemonAvailable(client.connection))
        let music = try client.register(SessionConfiguration(.playback, mode: .spokenAudio), name: "music")
        let idle = try client.register(SessionConfiguration(.ambient), name: "chime")
        let events = record(music)
        let idleEvents = record(idle)
        try music.activate()

        first.service.close()
        first.connection.close()
        try await events.wait(for: .mediaServicesLost)
        XCTAssertFalse(PolicyClient.isDaemonAvailable(client.connection))
        XCTAssertNil(music.path)
        XCTAssertThrowsError(try music.activate()) { XCTAssertEqual($0 as? SessionError, .mediaServicesFailed) }

        let second = try startDaemon()
        try await events.wait(for: .mediaServicesReset)
        try await idleEvents.wait(for: .mediaServicesReset)
        XCTAssertEqual(events.elements, [.mediaServicesLost, .mediaServicesReset])
        let sessions = try status().sessions
        XCTAssertEqual(sessions.map(\.name), ["music", "chime"])
        XCTAssertEqual(sessions.map(\.owner), [client.connection.uniqueName, client.connection.uniqueName])
        XCTAssertEqual(sessions.first?.mode, "spokenAudio")
        XCTAssertEqual(sessions.map(\.active), [true, false], "active again only if it was active")
        XCTAssertTrue(music.isActive)
        XCTAssertTrue(second.service.ownsSessions(client.connection.uniqueName))

        // And it works with the new daemon: its signals are accepted.
        let (other, _) = try playbackSession("other")
        try other.activate()
        try await events.wait(for: .interruption(.began(reason: .default)))
    }

    /// A session that comes back after a restart joins what played on meanwhile: it interrupts
    /// nothing (`alongsideOthers`), and the next activation applies the rules as usual.
    func testASessionActiveAgainAfterARestartInterruptsNothing() async throws {
        let first = try startDaemon()
        let client = try makeClient()
        let music = try client.register(SessionConfiguration(.playback), name: "music")
        let events = record(music)
        try music.activate()
        first.service.close()
        first.connection.close()
        try await events.wait(for: .mediaServicesLost)

        // The new daemon already has a player that started while there was none.
        let system = AudioSystem()
        let meanwhile = try system.makeSession(SessionConfiguration(.playback))
        try meanwhile.setActive(true)
        _ = try startDaemon(system: system)
        try await events.wait(for: .mediaServicesReset)
        XCTAssertTrue(music.isActive)
        XCTAssertTrue(meanwhile.isActive, "not interrupted by the session that came back")
        XCTAssertFalse(meanwhile.isInterrupted)

        try music.deactivate()
        try music.activate()
        XCTAssertFalse(meanwhile.isActive, "a new activation wins as usual")
    }
}
