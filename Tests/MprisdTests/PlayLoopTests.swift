import DBus
import Foundation
import TestSupport
import XCTest

/// `mprisd play --loop` as an MPRIS client sees it: a repeat of the same track is a jump back to its
/// start — one `Seeked(0)` per repeat, the same `mpris:trackid`, no `Metadata` change (what
/// playerctl and desktop widgets expect) — while a looping queue moving on to another file
/// announces that file as a new track.
final class PlayLoopTests: PlayerTestCase {
    /// Every repeat of this track is one `Seeked`; short, so a few repeats take about a second.
    private static let trackSeconds = 0.4

    func testARepeatedTrackIsASeekToZeroWithTheSameTrackID() async throws {
        let watcher = try connect()
        let (signals, subscriptions) = try await recordSignals(on: watcher)
        defer { for subscription in subscriptions { subscription.cancel() } }
        let player = try play(["--device", "null", "--loop", "track", "--name", "repeat",
                               try track("tone.wav", seconds: Self.trackSeconds)])

        let first = try await signals.wait(for: "the first repeat's Seeked") { $0.seeked.first }
        let metadataAtFirstRepeat = try await metadata(of: "repeat", on: watcher)
        let fourth = try await signals.wait(for: "four repeats' Seeked") { $0.seeked.dropFirst(3).first }
        let received = signals.elements
        let metadataLater = try await metadata(of: "repeat", on: watcher)

        let seeked = received.seeked
        XCTAssertTrue(seeked.allSatisfy { $0.position == 0 }, "each repeat restarts at 0: \(seeked)")
        // One Seeked per repeat, not more: the repeats are one track length apart, so four Seeked
        // span about three lengths (two or more per repeat would span one at most).
        XCTAssertGreaterThan(fourth.arrival - first.arrival, .seconds(Self.trackSeconds * 1.5),
                             "one Seeked per repeat: \(seeked)")

        // Metadata was announced once, at the start, and never again: the same track throughout.
        let announced = received.filter { $0.member == "PropertiesChanged" }
        let metadataChanges = announced.compactMap(\.metadata)
        XCTAssertEqual(metadataChanges.count, 1, "Metadata announced at the start only: \(announced)")
        XCTAssertTrue(announced.allSatisfy { $0.arrival < first.arrival },
                      "no PropertiesChanged once the track repeats: \(announced)")
        let trackID = try XCTUnwrap(metadataChanges.first.flatMap(Self.trackID), "\(metadataChanges)")
        XCTAssertEqual(metadataAtFirstRepeat.flatMap(Self.trackID), trackID)
        XCTAssertEqual(metadataLater.flatMap(Self.trackID), trackID)
        XCTAssertEqual(metadataLater, metadataChanges.first, "the Metadata did not change")

        player.signal(SIGTERM)
        let status = await player.waitForExit()
        XCTAssertEqual(status, 0, player.stderr)
    }

    func testALoopingQueueAnnouncesEachNextFileAsANewTrack() async throws {
        let watcher = try connect()
        let (signals, subscriptions) = try await recordSignals(on: watcher)
        defer { for subscription in subscriptions { subscription.cancel() } }
        let player = try play(["--device", "null", "--loop", "playlist", "--name", "queue",
                               try track("a.wav", seconds: Self.trackSeconds),
                               try track("b.wav", seconds: Self.trackSeconds)])

        let changes = try await signals.wait(for: "a, b and a again announced") { received in
            let changes = received.compactMap(\.metadata)
            return changes.count >= 3 ? changes : nil
        }
        XCTAssertEqual(changes.prefix(3).map(Self.title), ["a", "b", "a"])
        let ids = changes.prefix(3).map(Self.trackID)
        XCTAssertEqual(Set(ids.compactMap { $0 }).count, 3, "each file played is a new track: \(ids)")
        XCTAssertEqual(signals.elements.seeked.count, 0, "moving to another file is no seek")

        player.signal(SIGTERM)
        let status = await player.waitForExit()
        XCTAssertEqual(status, 0, player.stderr)
    }
}

// MARK: Watching the player

/// A signal the player sent, with when the test received it.
private struct Received: Sendable, CustomStringConvertible {
    let member: String
    let body: [DBusValue]
    let arrival: ContinuousClock.Instant

    /// `Seeked`'s position (µs).
    var seekedPosition: Int64? {
        guard member == "Seeked", case .int64(let position)? = body.first else { return nil }
        return position
    }

    /// The `Metadata` a `PropertiesChanged` carried, nil when it carried none.
    var metadata: DBusValue? {
        guard member == "PropertiesChanged", body.count == 3,
              case .dictionary(_, _, let entries) = body[1] else { return nil }
        guard let entry = entries.first(where: { $0.key == .string("Metadata") }),
              case .variant(let value) = entry.value else { return nil }
        return value
    }

    var description: String { "\(member) \(body)" }
}

extension [Received] {
    fileprivate var seeked: [(position: Int64, arrival: ContinuousClock.Instant)] {
        compactMap { received in received.seekedPosition.map { ($0, received.arrival) } }
    }
}

extension PlayLoopTests {
    private static let objectPath = "/org/mpris/MediaPlayer2"

    /// Records every `PropertiesChanged` and `Seeked` on the MPRIS object (the test bus has no
    /// other player), from before the player starts.
    private func recordSignals(on connection: Connection) async throws
        -> (EventRecord<Received>, [SignalSubscription]) {
        let record = EventRecord<Received>()
        let path = try ObjectPath(Self.objectPath)
        var subscriptions: [SignalSubscription] = []
        for rule in [MatchRule(interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged", path: path),
                     MatchRule(interface: "org.mpris.MediaPlayer2.Player", member: "Seeked", path: path)] {
            subscriptions.append(try await connection.subscribe(rule) { message in
                record.append(Received(member: message.member ?? "", body: message.body, arrival: .now))
            })
        }
        return (record, subscriptions)
    }

    /// The `Metadata` of player `name`, read as a client reads it.
    private func metadata(of name: String, on connection: Connection) async throws -> DBusValue? {
        let reply = try await connection.call(destination: "org.mpris.MediaPlayer2.\(name)",
                                              path: try ObjectPath(Self.objectPath),
                                              interface: "org.freedesktop.DBus.Properties", member: "Get",
                                              [.string("org.mpris.MediaPlayer2.Player"), .string("Metadata")])
        guard case .variant(let value)? = reply.first else { return nil }
        return value
    }

    private static func entry(_ key: String, of metadata: DBusValue) -> DBusValue? {
        guard case .dictionary(_, _, let entries) = metadata,
              let entry = entries.first(where: { $0.key == .string(key) }),
              case .variant(let value) = entry.value else { return nil }
        return value
    }

    private static func trackID(_ metadata: DBusValue) -> ObjectPath? {
        guard case .objectPath(let path)? = entry("mpris:trackid", of: metadata) else { return nil }
        return path
    }

    private static func title(_ metadata: DBusValue) -> String? {
        guard case .string(let title)? = entry("xesam:title", of: metadata) else { return nil }
        return title
    }
}
