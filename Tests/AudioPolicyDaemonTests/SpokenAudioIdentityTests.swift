import AppClassification
import AudioPolicyDaemon
import DBus
import Foundation
import MPRISDirectory
import Posix
import SessionCore
import TestSupport
import XCTest

/// A `player` rule may name a player by its MPRIS `Identity` (root interface), read once beside
/// `GetAll`: an audiobook app whose bus name says nothing (mpv's Identity is just "mpv", so these
/// players are exported by the test, as `ForeignPlayerVolumeTests` does for hostile volumes).
final class SpokenAudioIdentityTests: BusTestCase {
    private var system: AudioSystem!
    private var tracker: ForeignPlayerTracker!
    private var logs: EventRecord<String>!
    private var connections: [Connection] = []
    /// The tracker's connection (its directory's).
    private var trackerConnection: Connection!

    override func setUpWithError() throws {
        try super.setUpWithError()
        system = AudioSystem()
        let logs = EventRecord<String>()
        self.logs = logs
        trackerConnection = try connect()
        tracker = ForeignPlayerTracker(directory: PlayerDirectory(connection: trackerConnection), system: system,
                                       isOwnSession: { _ in false }, log: { logs.append($0) })
        tracker.setRules(AppRules(parsing: "player \"Cozy Audiobooks\" = spokenAudio", path: "/apps"))
        let started = Latch<Result<Void, DBusError>>()
        tracker.start { started.open(with: $0) }
        try started.wait().get()
    }

    override func tearDown() {
        tracker?.stop()
        tracker = nil
        for connection in connections { connection.close() }
        connections = []
        system = nil
        super.tearDown()
    }

    /// Exports a playing player whose `Identity` is `identity` as `org.mpris.MediaPlayer2.NAME`
    /// and waits until it is tracked; returns its mode.
    private func playerMode(_ name: String, identity: DBusValue) async throws -> String? {
        let connection = try connect()
        connections.append(connection)
        let player = try await FakeMPRISPlayer.start(on: connection, name: name,
                                                     .init(status: "Playing", volume: .ignored(1), identity: identity))
        let busName = player.busName
        let tracked = await eventually { self.tracker.players.contains { $0.busName == busName && $0.status == "Playing" } }
        XCTAssertTrue(tracked, "\(name) not tracked: \(logs.elements)")
        return tracker.players.first { $0.busName == busName }?.mode
    }

    func testARuleMatchesThePlayersIdentity() async throws {
        _ = try await playerMode("chapter", identity: .string("cozy audiobooks"))
        let marked = await eventually { self.tracker.players.first?.mode == "spokenAudio" }
        XCTAssertTrue(marked, "\(tracker.players), \(logs.elements)")
        XCTAssertEqual(tracker.players.first?.modeReason, "rule line 1")
        let session = try XCTUnwrap(tracker.players.first?.session)
        XCTAssertEqual(system.engine.session(SessionID(rawValue: session))?.configuration.mode, .spokenAudio)
    }

    func testAnIdentityOfTheWrongTypeIsIgnored() async throws {
        let mode = try await playerMode("chapter", identity: .int32(7))
        XCTAssertEqual(mode, "default")
        // Every read of the player the tracker had sent (its Identity's among them) is answered
        // and handled by now: a reply arriving after the tracking was ignored too.
        let player = try XCTUnwrap(connections.last)
        try await trackerConnection.settle(with: player.uniqueName, rounds: 2)
        XCTAssertEqual(tracker.players.first?.mode, "default", "\(logs.elements)")
    }
}
