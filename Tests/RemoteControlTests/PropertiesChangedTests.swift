import DBus
@testable import RemoteControl
import TestSupport
import XCTest

/// Values-only, de-duplicated PropertiesChanged, one per event; Position never signalled; Seeked
/// only on a reported discontinuity; Stopped before the release.
final class PropertiesChangedTests: EndpointTestCase {
    func testOneSignalPerBatchWithOnlyChangedValues() async throws {
        let player = try makePlayer()
        player.start()
        let acquired = try await waitForName(present: true)
        XCTAssertTrue(acquired)
        let client = try connect()
        let owner = try await client.nameOwner(Self.name)
        let unique = try XCTUnwrap(owner)
        let recorder = try await SignalRecorder(connection: client, name: Self.name)

        // One event changing two properties: one signal with exactly those two values.
        player.endpoint.update { info in
            info.setElapsed(info.position())
            info.playbackState = .paused
            info.volume = 0.5
        }
        try await sync(client, destination: unique)
        var signals = recorder.propertiesChanged()
        XCTAssertEqual(signals.count, 1)
        XCTAssertEqual(signals.first?.changed, ["PlaybackStatus": .string("Paused"), "Volume": .double(0.5)])
        XCTAssertEqual(signals.first?.invalidated, [])

        // Nothing changed: nothing sent. The position moving is never announced, nor Seeked.
        recorder.clear()
        player.endpoint.update { $0.volume = 0.5 }
        player.endpoint.update { $0.setElapsed(.seconds(30)) }
        try await sync(client, destination: unique)
        XCTAssertEqual(recorder.all.count, 0, "\(recorder.all)")

        // A new track: one signal, Metadata only (with the new trackid), no Position, no Seeked.
        player.endpoint.update { info in
            info.item = TestPlayer.items[1]
            info.setElapsed(.zero)
        }
        try await sync(client, destination: unique)
        signals = recorder.propertiesChanged()
        XCTAssertEqual(signals.count, 1)
        XCTAssertEqual(signals.first.map { Array($0.changed.keys) }, ["Metadata"])
        XCTAssertEqual(recorder.seeked, [])

        // A reported discontinuity: Seeked with the new position, and no PropertiesChanged.
        recorder.clear()
        player.endpoint.update(discontinuity: true) { $0.setElapsed(.seconds(61)) }
        try await sync(client, destination: unique)
        XCTAssertEqual(recorder.seeked, [61_000_000])
        XCTAssertEqual(recorder.propertiesChanged().count, 0)
        XCTAssertFalse(recorder.all.contains { message in
            message.body.contains { "\($0)".contains("Position") }
        })

        // Can* follow the command center: disabling Next is one signal with CanGoNext false.
        recorder.clear()
        player.center.setEnabled(.nextTrack, false)
        try await sync(client, destination: unique)
        signals = recorder.propertiesChanged()
        XCTAssertEqual(signals.count, 1)
        XCTAssertEqual(signals.first?.changed, ["CanGoNext": .boolean(false)])
    }

    func testSeekedCarriesThePositionAsRecordedWhilePlaying() async throws {
        let player = try makePlayer()
        player.start()
        let acquired = try await waitForName(present: true)
        XCTAssertTrue(acquired)
        let client = try connect()
        let owner = try await client.nameOwner(Self.name)
        let unique = try XCTUnwrap(owner)
        let recorder = try await SignalRecorder(connection: client, name: Self.name)

        // A restart of the same track while playing: Seeked(0) exactly (not 0 plus the time it
        // took to send), the same trackid, and no PropertiesChanged.
        let before = try await metadata(client, unique)
        player.endpoint.update(discontinuity: true) { $0.setElapsed(.zero) }
        player.endpoint.update(discontinuity: true) { $0.setElapsed(.seconds(42)) }
        try await sync(client, destination: unique)
        XCTAssertEqual(recorder.seeked, [0, 42_000_000])
        XCTAssertEqual(recorder.propertiesChanged().count, 0)
        let after = try await metadata(client, unique)
        XCTAssertEqual(after, before)
    }

    private func metadata(_ client: Connection, _ destination: String) async throws -> DBusValue? {
        try await client.call(destination: destination, path: MPRISNames.objectPath,
                              interface: "org.freedesktop.DBus.Properties", member: "Get",
                              [.string("org.mpris.MediaPlayer2.Player"), .string("Metadata")]).first
    }

    func testLeavingTheContextSendsStoppedThenReleasesTheName() async throws {
        let player = try makePlayer()
        let client = try connect()
        let recorder = try await SignalRecorder(connection: client, name: Self.name)
        player.start()
        let acquired = try await waitForName(present: true)
        XCTAssertTrue(acquired)
        // The entry's PropertiesChanged has reached the client before it is forgotten.
        let owner = try await client.nameOwner(Self.name)
        try await sync(client, destination: try XCTUnwrap(owner))
        recorder.clear()

        player.endpoint.update { $0.playbackState = .stopped }
        let released = try await waitForName(present: false)
        XCTAssertTrue(released)
        let ok = await waitUntil { recorder.all.contains { $0.member == "NameOwnerChanged" } }
        XCTAssertTrue(ok)
        // One PropertiesChanged per interface (Player; the root's CanRaise/CanQuit), then the
        // name goes.
        let members = recorder.all.compactMap(\.member)
        XCTAssertEqual(members, ["PropertiesChanged", "PropertiesChanged", "NameOwnerChanged"])
        XCTAssertEqual(recorder.propertiesChanged().count, 1)
        XCTAssertEqual(recorder.propertiesChanged("org.mpris.MediaPlayer2").first?.changed,
                       ["CanRaise": .boolean(false), "CanQuit": .boolean(false)])
        let stopped = recorder.propertiesChanged().first?.changed
        XCTAssertEqual(stopped?["PlaybackStatus"], .string("Stopped"))
        XCTAssertEqual(stopped?["Metadata"], .dictionary(key: .string, value: .variant, []))
        XCTAssertEqual(stopped?["CanPlay"], .boolean(false), "outside the audio context nothing acts")
    }

    func testQuickStopStartAlwaysEndsInTheLastState() async throws {
        let player = try makePlayer()
        player.start()
        for _ in 0..<25 {
            player.endpoint.update { $0.playbackState = .stopped }
            player.endpoint.update { $0.playbackState = .playing }
        }
        let endpoint = player.endpoint
        let owned = await waitUntil { endpoint.isNameSettled && endpoint.busName == Self.name }
        XCTAssertTrue(owned)
        var names = try await busNames()
        XCTAssertTrue(names.contains(Self.name))
        try await expectPlayerctl("status", prints: "Playing")

        for _ in 0..<25 {
            player.endpoint.update { $0.playbackState = .playing }
            player.endpoint.update { $0.playbackState = .stopped }
        }
        let released = await waitUntil { endpoint.isNameSettled && endpoint.busName == nil }
        XCTAssertTrue(released)
        names = try await busNamesAfterRequests(of: player)
        XCTAssertFalse(names.contains(Self.name))
        XCTAssertFalse(names.contains { $0.hasPrefix("org.mpris.MediaPlayer2.") })
    }
}
