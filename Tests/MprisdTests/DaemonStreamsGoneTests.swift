import DBus
import Foundation
import TestSupport
import XCTest

/// A player whose audio-server streams have been gone for the limit leaves its audio context
/// (issue 16; brave-browser#47772: an idle tab must not hold the keys). A real server per test,
/// the daemon with the limit shortened (`MPRISD_TEST_STREAMS_GONE_LIMIT`), and a player that
/// tears its stream down on pause as Firefox does: the fake player
/// (Tests/Fixtures/FakePlayer, option `teardown`), whose audio is a `paplay` child — paired with
/// the player through its process tree. A real mpv keeps its (corked) stream on pause, and the
/// keys with it.
final class DaemonStreamsGoneTests: StreamTestCase {
    /// The limit the daemon is given: short, yet long enough that the listing right after the
    /// pause comes well before it even on a loaded machine (checked against the clock anyway).
    private static let limit: TimeInterval = 6

    private typealias Listing = PlayersListing

    func testAPlayerWhoseStreamWentOnPauseLeavesTheKeysAfterTheLimitOnPulseAudio() async throws {
        try await streamGoneLeavesTheKeys(.pulseAudio)
    }

    func testAPlayerWhoseStreamWentOnPauseLeavesTheKeysAfterTheLimitOnPipeWire() async throws {
        try await streamGoneLeavesTheKeys(.pipeWire)
    }

    func testAPlayerPausedByACallKeepsTheKeysWithoutItsStream() async throws {
        try await startPulse(.pulseAudio)
        try await startLimitedDaemon()
        let player = try await startTeardownPlayer()
        _ = try startCall()
        let paused = try await waitForPlayers("the call paused the player and its stream went") { listing in
            guard let row = listing.player(player) else { return false }
            return row.status == "Paused" && row.hasStreams == false && row.streamsGoneSince != nil
        }
        XCTAssertEqual(paused.player(player)?.active, true)
        // The limit passes (with room to spare): the interruption holds it in its context. Time is
        // the subject here: the daemon runs on real time (the limit's edges: PlayerArbiterTests).
        try await Task.sleep(for: .seconds(Self.limit + 3))
        let later = try await players()
        let row = try XCTUnwrap(later.player(player))
        XCTAssertTrue(row.active, "paused by the call, it must keep the keys: \(row.reason)")
        XCTAssertTrue(row.reason.hasPrefix("paused by "), row.reason)
        XCTAssertFalse(row.reason.hasPrefix("paused by the user"), row.reason)
        XCTAssertFalse(daemon?.stderr.contains("left its audio context") ?? true, daemon?.stderr ?? "")
    }

    func testARealMpvPausedByTheUserKeepsItsStreamAndTheKeys() async throws {
        try XCTSkipUnless(MPVPlayer.isAvailable, "mpv and mpv-mpris are not installed")
        try await startPulse(.pulseAudio)
        try await startLimitedDaemon()
        let mpv = try await MPVPlayer.start(bus: bus, file: try track("mpv.wav", seconds: 60), output: ["--ao=pulse"],
                                            environment: pulseEnvironment)
        addTeardownBlock { mpv.kill() }
        try await waitForPlayers("mpv plays with a stream of its own (mpv: \(mpv.process.standardError))") { listing in
            listing.player(mpv.busName).map { $0.active && $0.status == "Playing" && $0.hasStreams == true } ?? false
        }
        try await mpv.pause()
        try await waitForPlayers("mpv paused") { $0.player(mpv.busName)?.status == "Paused" }
        try await Task.sleep(for: .seconds(Self.limit + 3))  // time is the subject here, as above
        let listing = try await players()
        let row = try XCTUnwrap(listing.player(mpv.busName))
        XCTAssertTrue(row.active, "mpv keeps its stream (corked) on pause: \(row.reason)")
        XCTAssertEqual(row.hasStreams, true)
        XCTAssertNil(row.streamsGoneSince)
    }

    // MARK: The scenario

    private func streamGoneLeavesTheKeys(_ kind: AudioServerKind) async throws {
        try await startPulse(kind)
        try await startLimitedDaemon()
        let player = try await startTeardownPlayer()

        // The user pauses it; it ends its stream.
        try await call(player, "Pause")
        let paused = try await waitForPlayers("paused, its stream gone") { listing in
            listing.player(player).map { $0.status == "Paused" && $0.hasStreams == false && $0.streamsGoneSince != nil } ?? false
        }
        let gone = try XCTUnwrap(paused.player(player)?.streamsGoneSince)
        if Date().timeIntervalSince1970 < gone + Self.limit - 1 {
            XCTAssertEqual(paused.player(player)?.active, true, "before the limit it keeps the keys: a pause for a coffee")
        }

        // After the limit: in no audio context, and the keys find no player.
        let left = try await waitForPlayers("it left its audio context", timeout: .seconds(Self.limit + 20)) { listing in
            listing.player(player).map { !$0.active && $0.rank == nil } ?? false
        }
        let reason = left.player(player)?.reason ?? ""
        XCTAssertTrue(reason.hasPrefix("paused, its streams gone since ") && reason.hasSuffix("in no audio context"), reason)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince1970, gone + Self.limit - 0.5, "not before the limit")
        await waitForDaemonLog("player \(player) left its audio context: its streams gone since")
        if kind == .pipeWire, let daemon {
            // No deadline is pending any more: nothing wakes the daemon. (Only on PipeWire: the test
            // PulseAudio's loopback stream sends an event about once a second; StreamDuckTests.)
            // Time is the subject here: wake-ups counted over two idle seconds.
            try await Task.sleep(for: .milliseconds(500))
            let before = daemon.contextSwitches()
            try await Task.sleep(for: .seconds(2))
            XCTAssertEqual(daemon.contextSwitches() - before, 0, "the daemon woke up with no deadline pending")
        }
        let control = try await mprisd(["control", "play"])
        XCTAssertEqual(control.status, 1, "no player in an audio context: \(control.stdout) \(control.stderr)")
        let lines = control.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, control.stderr)
        XCTAssertTrue(lines.first?.contains("no player is in an audio context") ?? false, control.stderr)
        let status = try await mprisd(["status"])
        XCTAssertTrue(status.stdout.split(separator: "\n").contains("Active player: none"), status.stdout)

        // Played again (from its own window): back in its context, with a new stream.
        try await call(player, "Play")
        try await waitForPlayers("it plays again and has the keys") { listing in
            listing.player(player).map { $0.active && $0.status == "Playing" && $0.hasStreams == true } ?? false
        }
    }

    // MARK: Helpers

    private func startLimitedDaemon() async throws {
        try await startDaemon(environment: serverVariables.merging(["MPRISD_TEST_STREAMS_GONE_LIMIT": "\(Int(Self.limit))"]) { _, new in new })
        await waitForDaemonLog("connected to the audio server", timeout: .seconds(10))
        await waitForDaemonLog("players leave their audio context \(Int(Self.limit)) s after their streams went")
    }

    /// Starts the fake player in teardown mode; returns its bus name once the daemon pairs it,
    /// playing, with its stream.
    private func startTeardownPlayer() async throws -> String {
        let name = "tablike"
        let busName = "org.mpris.MediaPlayer2." + name
        let script = Repository.path("Tests/Fixtures/FakePlayer/fake_player.py")
        let process = try BackgroundProcess("/usr/bin/python3", [script, name, "Playing", "stream=\(try track("tab.wav", seconds: 120))",
                                                                 "role=music", "teardown"], environment: pulseEnvironment)
        addTeardownBlock { process.stop() }
        try await waitForPlayers("the player plays with its stream, paired", timeout: .seconds(15)) { listing in
            listing.player(busName).map { $0.active && $0.status == "Playing" && $0.hasStreams == true } ?? false
        }
        return busName
    }

    private func players() async throws -> Listing {
        let result = try await mprisd(["players", "--json"])
        guard result.status == 0 else { throw TestSupportError("mprisd players --json: \(result.stderr)") }
        return try JSONDecoder().decode(Listing.self, from: Data(result.stdout.utf8))
    }

    @discardableResult
    private func waitForPlayers(_ what: String, timeout: Duration = .seconds(10), file: StaticString = #filePath,
                                line: UInt = #line, _ condition: @escaping (Listing) -> Bool) async throws -> Listing {
        var last: Listing?
        let held = await eventually(timeout: timeout) {
            guard let listing = try? await self.players() else { return false }
            last = listing
            return condition(listing)
        }
        let shown = last?.players.map { "\($0.busName) \($0.status) active \($0.active) streams \($0.hasStreams.map(String.init) ?? "?") \($0.reason)" }
        XCTAssertTrue(held, "timed out waiting until \(what); last: \(shown ?? [])\ndaemon: \(daemon?.stderr.suffix(3000) ?? "")",
                      file: file, line: line)
        guard let last, held else { throw TestSupportError("not seen: \(what)") }
        return last
    }

    /// Calls a method of the player as the user's desktop would.
    private func call(_ busName: String, _ member: String) async throws {
        _ = try await observer().call(destination: busName, path: ObjectPath("/org/mpris/MediaPlayer2"),
                                      interface: "org.mpris.MediaPlayer2.Player", member: member, timeout: .seconds(5))
    }
}
