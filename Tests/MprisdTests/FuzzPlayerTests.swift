import DBus
import Foundation
import TestSupport
import XCTest

/// `mprisd play` (a real process, paused on a looping two-track queue so nothing changes by
/// itself) under hostile MPRIS input: every method and property its object declares, read from
/// `Introspect`, called with wrong signatures, wrong types, NaN/inf/negative volumes and rates,
/// huge positions and offsets, unknown track ids, megabyte strings, huge arrays, deep variants,
/// `Set` on read-only properties and unknown interfaces; then seeded random calls and byte-level
/// mutations through a raw socket. Every call is answered, a refused call changes nothing, and the
/// player is alive and still an MPRIS player at the end.
final class FuzzPlayerTests: PlayerTestCase {
    private static let seed: UInt64 = 0x6D70_7269_7364_0002
    private static let busName = "org.mpris.MediaPlayer2.fuzz"

    func testEveryMemberAnswersHostileCallsAndSurvivesMutatedMessages() async throws {
        let started = ContinuousClock.now
        let watcher = try connect()
        let player = try play(["--device", "null", "--loop", "playlist", "--name", "fuzz",
                               try track("one.wav", seconds: 20), try track("two.wav", seconds: 20)])
        try await waitUntil("the player's name appears") { try await self.hasName("fuzz", on: watcher) }
        let targetName = await owner(of: Self.busName, on: watcher)
        let target = try XCTUnwrap(targetName)
        let mpris = try ObjectPath("/org/mpris/MediaPlayer2")
        _ = try await watcher.call(destination: target, path: mpris, interface: "org.mpris.MediaPlayer2.Player",
                                   member: "Pause")
        try await waitUntil("paused") { try await self.playerctl("-p", "fuzz", "status") == "Paused" }

        let fuzz = try connect()
        let objects = try await IntrospectedObject.walk(fuzz, destination: target, from: .root)
        let members = Set(objects.flatMap { $0.methods.map { "\($0.interface).\($0.name)" } })
        let properties = Set(objects.flatMap { $0.properties.map(\.name) })
        XCTAssertTrue(members.isSuperset(of: ["org.mpris.MediaPlayer2.Player.Seek", "org.mpris.MediaPlayer2.Player.SetPosition",
                                              "org.mpris.MediaPlayer2.Raise"]), "\(members.sorted())")
        XCTAssertTrue(properties.isSuperset(of: ["Volume", "Rate", "LoopStatus", "PlaybackStatus", "Identity"]))

        // Everything readable but the position (which a seek is allowed to move).
        let snapshot: () async throws -> String = {
            var parts: [String] = []
            for interface in ["org.mpris.MediaPlayer2", "org.mpris.MediaPlayer2.Player"] {
                let all = try await fuzz.call(destination: target, path: mpris, interface: "org.freedesktop.DBus.Properties",
                                              member: "GetAll", [.string(interface)], timeout: .seconds(10))
                guard case .dictionary(_, _, let entries)? = all.first else { throw TestSupportError("GetAll: \(all)") }
                parts += entries.filter { $0.key != .string("Position") }.map { "\($0.key)=\($0.value)" }.sorted()
            }
            return parts.joined(separator: "\n")
        }
        // Calls that would start playback or end the player are only sent malformed: the state must
        // stay still for the comparisons, and the subject must stay.
        let fuzzer = CallFuzzer(connection: fuzz, destination: target, seed: Self.seed,
                                onlyMalformed: ["Play", "PlayPause", "Stop", "Quit"], snapshot: snapshot)
        var templates: [Message] = []
        for object in objects { templates += fuzzer.cases(for: object) }
        // The values the MPRIS spec singles out, each on its own.
        let playerInterface = "org.mpris.MediaPlayer2.Player"
        func set(_ name: String, _ value: DBusValue) -> Message {
            .methodCall(destination: target, path: mpris, interface: "org.freedesktop.DBus.Properties", member: "Set",
                        body: [.string(playerInterface), .string(name), .variant(value)])
        }
        for value in FuzzValues.edgeDoubles {
            templates += [set("Volume", .double(value)), set("Rate", .double(value)), set("Volume", .variant(.double(value)))]
        }
        for offset: Int64 in [.min, .min + 1, -1, 0, 1, .max - 1, .max] {
            templates.append(.methodCall(destination: target, path: mpris, interface: playerInterface, member: "Seek", body: [.int64(offset)]))
            for track in FuzzValues.edgePaths {
                templates.append(.methodCall(destination: target, path: mpris, interface: playerInterface, member: "SetPosition",
                                             body: [.objectPath(try ObjectPath(track)), .int64(offset)]))
            }
        }
        templates += fuzzer.randomCases(objects, count: 1000)
        for message in templates { try await fuzzer.run(message) }
        let typedTime = ContinuousClock.now - started
        XCTAssertTrue(player.isRunning, "the player died during the typed fuzz: \(player.stderr.suffix(2000))")

        var mutations = ByteMutationFuzzer(address: bus.address, target: target, seed: Self.seed)
        try mutations.run(templates: templates, rounds: 2000)

        XCTAssertTrue(player.isRunning, "the player died: \(player.stderr.suffix(2000))")
        let still = try await hasName("fuzz", on: watcher)
        XCTAssertTrue(still, "still an MPRIS player")
        let status = try await playerctl("-p", "fuzz", "status")
        XCTAssertTrue(["Playing", "Paused"].contains(status), status)
        XCTAssertGreaterThan(fuzzer.counts.errors, 100, "hostile calls are refused")
        XCTAssertGreaterThan(mutations.counts.answeredByTarget, 0, "some mutated messages reached the player")
        let total = fuzzer.counts.calls + mutations.counts.sent
        print("fuzz: \(total) cases against mprisd play: \(fuzzer.counts); \(mutations.counts); "
              + "\(members.count) methods, \(properties.count) properties; typed \(typedTime), all \(ContinuousClock.now - started)")
        print("fuzz: player error replies by name: \(fuzzer.counts.errorNames.sorted { $0.key < $1.key })")
    }
}
