import DBus
import Foundation
import TestSupport
import XCTest

/// What the arbiter tests share: `mprisd players --json` read back, the fake MPRIS player
/// (Tests/Fixtures/FakePlayer), waits on the active player.
class ArbiterTestCase: DaemonTestCase {
    /// `mprisd players --json` (`PlayersListing`).
    typealias Listing = PlayersListing

    func listing(file: StaticString = #filePath, line: UInt = #line) async throws -> Listing {
        let result = try await mprisd(["players", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        return try JSONDecoder().decode(Listing.self, from: Data(result.stdout.utf8))
    }

    /// Waits until `condition` holds for `mprisd players --json`; returns that listing.
    @discardableResult
    func waitForListing(_ what: String, timeout: Duration = .seconds(10), file: StaticString = #filePath, line: UInt = #line,
                        _ condition: (Listing) -> Bool) async throws -> Listing {
        var last: Listing?
        let held = await eventually(timeout: timeout) {
            guard let listing = try? await self.listing() else { return false }
            last = listing
            return condition(listing)
        }
        let shown = last.map { $0.players.map { "\($0.busName) \($0.status) rank \($0.rank.map(String.init) ?? "-") \($0.active ? "active " : "")\($0.reason)" } }
        XCTAssertTrue(held, "timed out waiting until \(what); last: \(shown ?? []); daemon: \(daemon?.stderr.suffix(3000) ?? "")",
                      file: file, line: line)
        guard let last else { throw TestSupportError("no listing while waiting until \(what)") }
        return last
    }

    /// Waits until the active player is `busName` (nil: none).
    @discardableResult
    func waitForActive(_ busName: String?, file: StaticString = #filePath, line: UInt = #line) async throws -> Listing {
        try await waitForListing("the active player is \(busName ?? "none")", file: file, line: line) { $0.active?.busName == busName }
    }

    /// A running fake player (`fake_player.py`): its bus name and what it was called.
    final class FakePlayer: Sendable {
        let process: BackgroundProcess
        let busName: String
        init(process: BackgroundProcess, busName: String) {
            self.process = process
            self.busName = busName
        }
        /// The calls it got, in order (`Pause`, `Seek 5000000`, …).
        var calls: [String] {
            process.standardOutput.split(separator: "\n").filter { $0.hasPrefix("call ") }.map { String($0.dropFirst(5)) }
        }
    }

    /// Starts `fake_player.py NAME STATUS OPTIONS…`; returns once the daemon lists it with `status`.
    func startFake(_ name: String, status: String, _ options: String...) async throws -> FakePlayer {
        try await startFake(name, status: status, options: options)
    }

    /// `startFake` with more of the environment (`extra`: an audio server's variables, PULSE_SINK).
    func startFake(_ name: String, status: String, options: [String], environment extra: [String: String] = [:])
        async throws -> FakePlayer {
        let script = Repository.path("Tests/Fixtures/FakePlayer/fake_player.py")
        let process = try BackgroundProcess("/usr/bin/python3", [script, name, status] + options, environment: environment(extra))
        addTeardownBlock { process.stop() }
        let fake = FakePlayer(process: process, busName: "org.mpris.MediaPlayer2." + name)
        try await waitForListing("the arbiter knows \(name) as \(status)") { $0.player(fake.busName)?.status == status }
        return fake
    }

    /// The fake's status as it would answer anyone now.
    func status(of fake: FakePlayer) async throws -> String {
        let reply = try await observer().call(destination: fake.busName, path: ObjectPath("/org/mpris/MediaPlayer2"),
                                              interface: "org.freedesktop.DBus.Properties", member: "Get",
                                              [.string("org.mpris.MediaPlayer2.Player"), .string("PlaybackStatus")])
        guard case .variant(.string(let status))? = reply.first else { throw TestSupportError("Get answered \(reply)") }
        return status
    }

    /// Calls a method of the fake's player interface as another program (the user's desktop) would.
    func call(_ fake: FakePlayer, _ member: String, _ arguments: [DBusValue] = []) async throws {
        _ = try await observer().call(destination: fake.busName, path: ObjectPath("/org/mpris/MediaPlayer2"),
                                      interface: "org.mpris.MediaPlayer2.Player", member: member, arguments)
    }

    /// Waits until the fake got `count` calls (its output is read asynchronously).
    func waitForCalls(_ fake: FakePlayer, _ expected: [String], file: StaticString = #filePath, line: UInt = #line) async throws {
        try await waitUntil("\(fake.busName) got \(expected)", file: file, line: line) { fake.calls == expected }
    }

    /// `mprisd control ARGS`.
    func control(_ arguments: String...) async throws -> ProgramResult {
        try await mprisd(["control"] + arguments)
    }
}

/// `mprisd players --json`, as far as the tests read it (the one declaration of it).
struct PlayersListing: Decodable {
    struct Player: Decodable {
        var busName: String
        var owner: String
        var status: String
        var rank: Int?
        var active: Bool
        var pinned: Bool
        var reason: String
        var ignoredBy: String?
        var streamsGoneSince: Double?
        var hasStreams: Bool?
    }
    var players: [Player]
    var active: Player? { players.first { $0.active } }
    func player(_ busName: String) -> Player? { players.first { $0.busName == busName } }
}
