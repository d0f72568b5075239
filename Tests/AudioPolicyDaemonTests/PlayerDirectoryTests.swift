import AudioPolicyDaemon
import DBus
import Foundation
import MPRISDirectory
import SessionCore
import Synchronization
import TestSupport
import XCTest

/// `PlayerDirectory` on a private bus, with players exported by the test (which count every read
/// of their properties): the events come in order, a reader that comes late is told what is
/// there, an owner's names are bounded — and the policy, the arbiter and the headset together
/// cost the bus one watch of names, one rule and one read per player (issue 23).
final class PlayerDirectoryTests: BusTestCase {
    /// One line per event: `appeared NAME`, `read NAME Playing`, `changed NAME Paused`, `vanished NAME reason`.
    private static func line(_ event: PlayerDirectoryEvent) -> String? {
        switch event {
        case .appeared(let player): "appeared \(player.busName)"
        case .read(let player): "read \(player.busName) \(player.properties.playbackStatus ?? "-")"
        case .changed(let player, _): "changed \(player.busName) \(player.properties.playbackStatus ?? "-")"
        case .vanished(let player, let reason): "vanished \(player.busName) \(reason)"
        case .seeked, .identified, .located: nil
        }
    }

    private func observe(_ directory: PlayerDirectory) -> (EventRecord<String>, EventSubscription) {
        let record = EventRecord<String>()
        let subscription = directory.observe { event in Self.line(event).map(record.append) }
        return (record, subscription)
    }

    private func start(_ directory: PlayerDirectory) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            directory.start { continuation.resume(with: $0) }
        }
    }

    func testAPlayersEventsComeInOrderFromAppearanceToVanishing() async throws {
        let directory = PlayerDirectory(connection: try connect())
        let (record, subscription) = observe(directory)
        defer { subscription.cancel() }
        try await start(directory)

        let player = try await FakeMPRISPlayer.start(on: try connect(), name: "first", .init(status: "Playing"))
        let name = player.busName
        try await record.wait(for: "the player read") { $0.contains("read \(name) Playing") ? true : nil }
        player.set("Paused")
        try await record.wait(for: "its change") { $0.contains("changed \(name) Paused") ? true : nil }
        XCTAssertEqual(directory.player(name)?.properties.playbackStatus, "Paused", "the directory keeps the newest word")
        _ = try await player.connection.releaseName(name)
        try await record.wait(for: "its end") { $0.contains("vanished \(name) nameReleased") ? true : nil }
        XCTAssertEqual(record.elements, ["appeared \(name)", "read \(name) Playing", "changed \(name) Paused",
                                         "vanished \(name) nameReleased"])
        XCTAssertNil(directory.player(name))
    }

    func testAReaderThatComesLateIsToldThePlayersThereAndThoseFoundAtStartSaySo() async throws {
        let early = try await FakeMPRISPlayer.start(on: try connect(), name: "early", .init(status: "Playing"))
        let directory = PlayerDirectory(connection: try connect())
        let (first, firstSubscription) = observe(directory)
        defer { firstSubscription.cancel() }
        try await start(directory)
        try await first.wait(for: "the early player read") { $0.contains("read \(early.busName) Playing") ? true : nil }
        XCTAssertEqual(directory.player(early.busName)?.foundAtStart, true, "there before the directory")

        let (late, lateSubscription) = observe(directory)
        defer { lateSubscription.cancel() }
        XCTAssertEqual(late.elements, ["appeared \(early.busName)", "read \(early.busName) Playing"],
                       "told at once, as if it had been there")
        let next = try await FakeMPRISPlayer.start(on: try connect(), name: "next", .init(status: "Paused"))
        try await late.wait(for: "a new player") { $0.contains("read \(next.busName) Paused") ? true : nil }
        XCTAssertEqual(directory.player(next.busName)?.foundAtStart, false)
        XCTAssertEqual(early.statusReads, 1, "read once, however many readers")
    }

    func testOneConnectionGetsAtMostSixteenNamesListed() async throws {
        let directory = PlayerDirectory(connection: try connect())
        let (record, subscription) = observe(directory)
        defer { subscription.cancel() }
        try await start(directory)
        let flood = try await FakeMPRISPlayer.start(on: try connect(), name: "flood0", .init(status: "Playing"))
        for index in 1..<20 { _ = try await flood.connection.requestName("org.mpris.MediaPlayer2.flood\(index)") }
        let last = try await FakeMPRISPlayer.start(on: try connect(), name: "zlast", .init(status: "Playing"))
        // The bus tells the names in order: once the later connection's player is there, every
        // flood name has been seen.
        try await record.wait(for: "the later player") { $0.contains("appeared \(last.busName)") ? true : nil }
        let flooded = directory.players.filter { $0.owner == flood.connection.uniqueName }
        XCTAssertEqual(flooded.count, 16, "\(flooded.map(\.busName))")
    }

    /// The daemon's three readers of players on one connection: one watch of names, one match
    /// rule and one read per player — where each used to keep its own.
    func testThePolicyTheArbiterAndTheHeadsetShareOneWatchAndOneRead() async throws {
        let systemBus = try TestBus(.system)
        defer { systemBus.stop() }
        let bluez = try await FakeBluez.start(on: systemBus)
        defer { bluez.stop() }
        let systemConnection = try Connection(address: systemBus.address)
        defer { systemConnection.close() }

        let session = try connect()
        let directory = PlayerDirectory(connection: session)
        let tracker = ForeignPlayerTracker(directory: directory, system: AudioSystem(), isOwnSession: { _ in false },
                                           log: { _ in })
        defer { tracker.stop() }
        let arbiter = PlayerArbiter(directory: directory, log: { _ in })
        defer { arbiter.stop() }
        let headset = HeadsetPlayer(directory: directory, system: systemConnection, log: { _ in })
        defer { headset.stop() }
        tracker.start()
        arbiter.start()
        headset.start(activePlayer: arbiter.onActiveChange)
        try await start(directory)  // the first look at the bus is over

        let before = try await session.matchRuleCount(of: session.uniqueName)
        let players = [try await FakeMPRISPlayer.start(on: try connect(), name: "one", .init(status: "Playing")),
                       try await FakeMPRISPlayer.start(on: try connect(), name: "two", .init(status: "Paused"))]
        // The active player is registered with BlueZ only after every reader has it: the tracker
        // has its session, the arbiter ranked it, the headset read its properties.
        let path = "/org/mprisd/Headset/" + String(players[0].connection.uniqueName.map { $0.isLetter || $0.isNumber ? $0 : "_" })
        let registered = try await bluez.waitForRegisteredPlayer { $0.path == path }
        XCTAssertEqual(registered.properties["PlaybackStatus"]?.string, "Playing")
        let tracked = await eventually { tracker.players.count == 2 }
        XCTAssertTrue(tracked, "\(tracker.players)")

        XCTAssertEqual(players.map(\.statusReads), [1, 1], "each player's properties read once, for all three")
        let after = try await session.matchRuleCount(of: session.uniqueName)
        XCTAssertEqual(after - before, players.count, "one match rule per player")
        XCTAssertEqual(before, 1, "one watch of the players' names")
    }
}
