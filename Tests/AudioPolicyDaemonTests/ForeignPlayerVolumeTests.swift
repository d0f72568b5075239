import AudioPolicyDaemon
import DBus
import Foundation
import MPRISDirectory
import Posix
import SessionCore
import Synchronization
import TestSupport
import XCTest

/// A player's `Volume` is only believed when it is one a player can have (finite, 0…10), however it
/// is read — `GetAll`, `Get` or `PropertiesChanged` — so a ducking never sets a volume outside
/// that range.
final class ForeignPlayerVolumeTests: BusTestCase {
    private var system: AudioSystem!
    private var tracker: ForeignPlayerTracker!
    private var logs: EventRecord<String>!
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
        let started = Latch<Result<Void, DBusError>>()
        tracker.start { started.open(with: $0) }
        try started.wait().get()
    }

    override func tearDown() {
        tracker?.stop()
        tracker = nil
        system = nil
        super.tearDown()
    }

    /// Starts a fake player as `org.mpris.MediaPlayer2.NAME`, waits until it is tracked, ducks it
    /// and ends the ducking; returns the volumes it was set to.
    private func duck(_ name: String, announcing volume: Double,
                      thenChangingTo changed: Double? = nil) async throws -> [Double] {
        let connection = try connect()
        // An honest player: Volume reads back what was set.
        let player = try await FakeMPRISPlayer.start(on: connection, name: name, .init(status: "Playing", volume: .honest(volume)))
        let busName = player.busName
        let tracker = self.tracker!, logs = self.logs!
        let tracked = await eventually { tracker.players.contains { $0.busName == busName && $0.status == "Playing" } }
        XCTAssertTrue(tracked, "\(name) not tracked: \(logs.elements)")
        if let changed {
            player.setVolume(changed)
            // The announcement leaves the player's connection ahead of this Ping to the tracker's,
            // whose I/O thread handles both in order.
            try await connection.roundTrip(to: trackerConnection.uniqueName)
        }
        let ducked = { tracker.players.first { $0.busName == busName }?.ducked == true }
        let prompt = try system.makeSession(SessionConfiguration(.playback, options: [.mixWithOthers, .duckOthers]))
        try prompt.setActive(true)
        // Decided at once: ducked (the lowered Volume being set), or not believing any volume.
        let decided = await eventually {
            ducked() || logs.elements.contains { $0.hasPrefix("\(busName): it has no Volume") }
        }
        XCTAssertTrue(decided, "\(name): no ducking decided: \(logs.elements)")
        // The tracker reads Volume, sets it, reads it back: its calls and the player's answers.
        try await trackerConnection.settle(with: connection.uniqueName, rounds: 3)
        try prompt.setActive(false)
        let ended = await eventually { !ducked() }
        XCTAssertTrue(ended, "\(name) still ducked: \(logs.elements)")
        try await trackerConnection.settle(with: connection.uniqueName, rounds: 3)
        connection.close()
        return player.volumeWrites
    }

    func testHostileVolumesAreNeverDuckedFrom() async throws {
        for (index, volume) in [-1, 1e300, .nan, .infinity, 11].enumerated() {
            let written = try await duck("bad\(index)", announcing: volume)
            XCTAssertEqual(written, [], "volume \(volume): set to \(written)")
        }
        XCTAssertTrue(logs.elements.contains { $0.contains("org.mpris.MediaPlayer2.bad1: it has no Volume") },
                      "\(logs.elements)")
    }

    func testAHostileChangeKeepsTheLastBelievableVolume() async throws {
        let written = try await duck("changing", announcing: 0.5, thenChangingTo: 1e300)
        XCTAssertFalse(written.isEmpty, "the player was ducked: \(logs.elements)")
        for volume in written {
            XCTAssertTrue(volume >= 0 && volume <= 0.5, "set to \(volume)")
        }
    }

    func testAnAmplifiedVolumeWithinTheCapIsDuckedAndRestored() async throws {
        let written = try await duck("loud", announcing: 1.5)
        XCTAssertEqual(written.count, 2, "ducked and restored: \(written), \(logs.elements)")
        XCTAssertEqual(written.last, 1.5)
    }
}
