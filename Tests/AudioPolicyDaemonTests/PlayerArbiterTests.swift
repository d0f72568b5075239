import AudioPolicyClient
import AudioPolicyDaemon
import AudioServer
import DBus
import Glibc
import MPRISDirectory
import PolicyTestSupport
import Synchronization
import TestSupport
import XCTest

/// `PlayerArbiter` on a private bus with players exported by the test itself: what the bluez
/// part relies on (`onActiveChange`: the current value at once, then each change, in order).
final class PlayerArbiterTests: BusTestCase {
    private final class Changes: Sendable {
        let seen = Mutex<[String]>([])
        func append(_ player: ActivePlayer?) { seen.withLock { $0.append(player?.busName ?? "none") } }
        var all: [String] { seen.withLock { $0 } }
    }

    func testActiveChangesAreAnnouncedAtOnceThenInOrder() async throws {
        let arbiterConnection = try connect()
        let arbiter = PlayerArbiter(directory: PlayerDirectory(connection: arbiterConnection), log: { _ in })
        let changes = Changes()
        let subscription = arbiter.onActiveChange { changes.append($0) }
        XCTAssertEqual(changes.all, ["none"], "the current value at once")
        arbiter.start()

        let first = try await FakeMPRISPlayer.start(on: try connect(), name: "first", .init(status: "Playing"))
        var ok = await eventually(timeout: .seconds(5)) { changes.all == ["none", first.busName] }
        XCTAssertTrue(ok, "\(changes.all)")

        let second = try await FakeMPRISPlayer.start(on: try connect(), name: "second", .init(status: "Paused"))
        second.set("Playing")
        ok = await eventually(timeout: .seconds(5)) { changes.all.last == second.busName }
        XCTAssertTrue(ok, "\(changes.all)")
        second.set("Stopped")
        ok = await eventually(timeout: .seconds(5)) { changes.all.last == first.busName }
        XCTAssertTrue(ok, "\(changes.all)")
        first.connection.close()
        ok = await eventually(timeout: .seconds(5)) { changes.all.last == "none" }
        XCTAssertTrue(ok, "\(changes.all)")
        XCTAssertEqual(changes.all, ["none", first.busName, second.busName, first.busName, "none"], "each change once")

        subscription.cancel()
        second.set("Playing")
        ok = await eventually(timeout: .seconds(5)) { arbiter.active?.busName == second.busName }
        XCTAssertTrue(ok)
        XCTAssertEqual(changes.all.count, 5, "a cancelled subscription hears nothing more")
        arbiter.stop()
        XCTAssertNil(arbiter.active)
    }

    func testOneConnectionGetsAtMostSixteenPlayersRanked() async throws {
        let arbiter = PlayerArbiter(directory: PlayerDirectory(connection: try connect()), log: { _ in })
        arbiter.start()
        let flood = try await FakeMPRISPlayer.start(on: try connect(), name: "flood0", .init(status: "Playing"))
        for index in 1..<20 { _ = try await flood.connection.requestName("org.mpris.MediaPlayer2.flood\(index)") }
        let other = try await FakeMPRISPlayer.start(on: try connect(), name: "other", .init(status: "Playing"))
        let ok = await eventually(timeout: .seconds(5)) { arbiter.listing().players.contains { $0.busName == other.busName } }
        XCTAssertTrue(ok)
        let names = arbiter.listing().players.map(\.busName)
        XCTAssertEqual(names.filter { $0.hasPrefix("org.mpris.MediaPlayer2.flood") }.count, 16, "\(names)")
        arbiter.stop()
    }

    /// A paused player whose streams went stays the keys' player for the streams-gone limit and
    /// leaves its audio context when it runs out — ten minutes crossed on a `VirtualClock`, one
    /// millisecond before and one after, through the arbiter's own timer (issue 26).
    func testAPausedPlayerWhoseStreamsWentLeavesItsContextWhenTheLimitRunsOut() async throws {
        let clock = VirtualClock()
        let join = PlayerStreams()
        let arbiter = PlayerArbiter(directory: PlayerDirectory(connection: try connect()), log: { _ in })
        arbiter.follow(streams: join, clock: clock.policyClock)
        arbiter.start()
        defer { arbiter.stop() }
        // The player is this process's connection, so a stream of this process is its stream.
        let player = try await FakeMPRISPlayer.start(on: try connect(), name: "gone", .init(status: "Playing"))
        let connected = AudioInventory(server: ServerIdentity(name: "test", version: "1", cookie: 1))
        var playing = connected
        let stream = AudioStream(id: StreamID(.playback, 1), applicationName: "test", processID: getpid())
        playing.streams[stream.id] = stream
        let changes = [InventoryChange(kind: .connected, previous: AudioInventory(), current: playing),
                       InventoryChange(kind: .updated, previous: playing, current: connected)]
        func row() -> PlayerListing.Player? { arbiter.listing().players.first { $0.busName == player.busName } }

        feed(changes[0], join, arbiter)
        var ok = await eventually(timeout: .seconds(5)) { row()?.hasStreams == true }
        XCTAssertTrue(ok, "\(arbiter.listing())")
        player.set("Paused")
        feed(changes[1], join, arbiter)
        ok = await eventually(timeout: .seconds(5)) { row()?.status == "Paused" && row()?.streamsGoneSince != nil }
        XCTAssertTrue(ok, "\(arbiter.listing())")
        XCTAssertEqual(arbiter.active?.busName, player.busName, "paused, and in its audio context")
        XCTAssertEqual(clock.pendingJobs, 1, "one timer, for the deadline")

        clock.advance(by: .seconds(PlayerRanking.streamsGoneLimit) - .milliseconds(1))
        XCTAssertEqual(arbiter.active?.busName, player.busName, "a millisecond before the limit")
        clock.advance(by: .milliseconds(2))
        XCTAssertNil(arbiter.active, "out of its audio context: \(arbiter.listing())")
        XCTAssertEqual(clock.pendingJobs, 0, "no timer left")
    }

    private func feed(_ change: InventoryChange, _ join: PlayerStreams, _ arbiter: PlayerArbiter) {
        join.inventoryChanged(change)
        arbiter.inventoryChanged(change)
    }
}
