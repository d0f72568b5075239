import DBus
@testable import RemoteControl
import TestSupport
import XCTest

/// An app changes its commands where it changes what plays: inside `endpoint.update {}`. The
/// command center's observer runs on that thread, under the endpoint's lock; the change folds into
/// the update and is announced with it.
final class CommandChangeInUpdateTests: EndpointTestCase {
    func testSetEnabledInsideUpdateIsAnnouncedWithTheUpdate() async throws {
        let player = try makePlayer()
        player.endpoint.update { info in
            info.item = TestPlayer.items[2]
            info.playbackState = .playing
            player.center.setEnabled(.nextTrack, false)  // the last item: nothing follows
        }
        XCTAssertFalse(player.endpoint.published.can(.nextTrack))
        let acquired = try await waitForName(present: true)
        XCTAssertTrue(acquired)
        try await expectPlayerctl("metadata", "title", prints: "Third Song")
        let client = try connect()
        let owner = try await client.nameOwner(Self.name)
        let unique = try XCTUnwrap(owner)
        let recorder = try await SignalRecorder(connection: client, name: Self.name)

        player.endpoint.update { info in
            info.item = TestPlayer.items[1]
            player.center.setEnabled(.nextTrack, true)
            player.center.setEnabled(.previousTrack, false)
        }
        try await sync(client, destination: unique)
        let signals = recorder.propertiesChanged()
        XCTAssertEqual(signals.count, 1, "one update, one announcement: \(signals)")
        XCTAssertEqual(signals.first.map { Set($0.changed.keys) }, ["Metadata", "CanGoNext", "CanGoPrevious"])
        XCTAssertEqual(signals.first?.changed["CanGoNext"], .boolean(true))
        XCTAssertEqual(signals.first?.changed["CanGoPrevious"], .boolean(false))
    }

    /// Outside an update, a change of the commands is announced by itself, at once.
    func testSetEnabledOutsideUpdateIsAnnouncedWhenItReturns() async throws {
        let player = try makePlayer()
        player.start()
        let acquired = try await waitForName(present: true)
        XCTAssertTrue(acquired)
        player.center.setEnabled(.seek, false)
        XCTAssertFalse(player.endpoint.published.can(.seek))
        try await expectPlayerctl("metadata", "title", prints: "First Song")
    }
}
