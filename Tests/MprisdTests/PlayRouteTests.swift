import DBus
import Foundation
import TestSupport
import XCTest

/// The user's route pick (G-ROUTE-PICK): `mprisd route use ID` moves a running `mprisd play` to
/// the picked output without pausing it, `auto` moves it back, and a pick is a route change with
/// reason *override* — so pulling out headphones the audio no longer goes to changes nothing.
/// Outputs are `file` PCMs over a real-time PulseAudio null sink, so each captures what it played.
final class PlayRouteTests: PacedCardTestCase {
    /// The fake card plus two paced outputs, `first` and `second`, capturing to their own files;
    /// `second` is declared in the user's configuration.
    private func environment() throws -> [String: String] {
        let environment = try pacedEnvironment([("first", path("first.raw")), ("second", path("second.raw"))])
        try FileManager.default.createDirectory(atPath: path("config/mprisd"), withIntermediateDirectories: true)
        try """
            # outputs the user can pick
            output.second = second
            output.second.name = Second Output
            output.second.type = usbAudio
            """.write(toFile: path("config/mprisd/config"), atomically: true, encoding: .utf8)
        return environment.merging(userDirectories) { _, mine in mine }
    }

    /// What output `name` captured so far.
    private func captured(_ name: String) -> Int { size(path(name + ".raw")) }

    private func route(_ arguments: String..., environment: [String: String]) async throws -> ProgramResult {
        var merged = bus.environment
        for (key, value) in environment { merged[key] = value }
        return try await runProgram(Products.path("mprisd"), ["route"] + arguments, environment: merged)
    }

    /// Waits until `name`'s capture grows, and returns whether it did. Growth counts from the
    /// smallest size seen: reopening a `file` PCM truncates its file. The generous limit covers
    /// the player's bursts (it refills a deep buffer) and the `file` plugin's own lag (it writes a
    /// buffer behind).
    private func grows(_ name: String, within timeout: Duration = .seconds(8)) async -> Bool {
        var low = captured(name)
        return await eventually(timeout: timeout) {
            let now = self.captured(name)
            low = min(low, now)
            return now > low + 20_000
        }
    }

    func testAPickMovesPlaybackToTheConfiguredDeviceAndNeverPauses() async throws {
        let environment = try environment()
        let player = try play(["--device", "first", "--control", FakeSoundCard.control, "--name", "pick",
                               try track("long.wav", seconds: 30)], environment: environment)
        try await waitUntil("playing") { try await self.playerctl("-p", "pick", "status") == "Playing" }
        let firstFlows = await grows("first")
        XCTAssertTrue(firstFlows, "audio goes to the player's own device first")
        XCTAssertEqual(captured("second"), 0)

        let listed = try await route("list", "--control", FakeSoundCard.control, environment: environment)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertTrue(listed.stdout.contains("second"), listed.stdout)
        XCTAssertTrue(listed.stdout.contains("Second Output"), listed.stdout)
        XCTAssertTrue(listed.stdout.contains("\(FakeSoundCard.control):Headphone Jack"), listed.stdout)
        XCTAssertTrue(listed.stdout.contains("route: automatic"), listed.stdout)

        let used = try await route("use", "second", "--control", FakeSoundCard.control, environment: environment)
        XCTAssertEqual(used.status, 0, used.stderr)
        let secondFlows = await grows("second")
        XCTAssertTrue(secondFlows, "the picked device plays: \(player.stderr)")
        let firstAfterMove = captured("first")
        let secondStillFlows = await grows("second")
        XCTAssertEqual(captured("first"), firstAfterMove, "nothing more goes to the first device")
        XCTAssertTrue(secondStillFlows)
        let afterPick = try await playerctl("-p", "pick", "status")
        XCTAssertEqual(afterPick, "Playing", "G-ROUTE-PICK: a pick never pauses")
        XCTAssertTrue(player.stderr.contains("route: second (picked)"), player.stderr)

        let picked = try await route("list", "--control", FakeSoundCard.control, environment: environment)
        XCTAssertTrue(picked.stdout.contains("route: second, picked"), picked.stdout)

        let back = try await route("use", "auto", environment: environment)
        XCTAssertEqual(back.status, 0, back.stderr)
        let firstAgain = await grows("first")
        XCTAssertTrue(firstAgain, "automatic routing plays through the player's own device again")
        let afterAuto = try await playerctl("-p", "pick", "status")
        XCTAssertEqual(afterAuto, "Playing")

        player.signal(SIGTERM)
        let status = await player.waitForExit()
        XCTAssertEqual(status, 0, player.stderr)
    }

    func testUnpluggingHeadphonesTheUserPickedAwayFromDoesNotPause() async throws {
        let environment = try environment()
        let used = try await route("use", "speaker", environment: environment)
        XCTAssertEqual(used.status, 0, used.stderr)
        let player = try play(["--device", "first", "--control", FakeSoundCard.control, "--name", "speakerpick",
                               try track("long.wav", seconds: 30)], environment: environment)
        try await waitUntil("playing") { try await self.playerctl("-p", "speakerpick", "status") == "Playing" }
        try card.setHeadphones(plugged: false)
        // The audio went to the picked speaker, not the headphones.
        try await assertPlayer("speakerpick", stays: "Playing", for: .milliseconds(600))
        let flows = await grows("first")
        XCTAssertTrue(flows)
        player.signal(SIGTERM)
        _ = await player.waitForExit()
    }

    func testAPickWaitsForItsDeviceAndAnUnknownOutputIsRefused() async throws {
        let environment = try environment()
        let unknown = try await route("use", "nosuchoutput", environment: environment)
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.stderr.contains("no output 'nosuchoutput'"), unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("second"), "the message lists what exists: \(unknown.stderr)")
        XCTAssertNil(try? String(contentsOfFile: path("state/mprisd/route"), encoding: .utf8),
                     "a refused pick changes nothing")

        let missing = try await route("use", environment: environment)
        XCTAssertEqual(missing.status, 64)

        // Headphones unplugged: the pick is kept and used once they are plugged in.
        try card.setHeadphones(plugged: false)
        let headphones = "\(FakeSoundCard.control):Headphone Jack"
        let used = try await route("use", headphones, "--control", FakeSoundCard.control, environment: environment)
        XCTAssertEqual(used.status, 0, used.stderr)
        let stored = try String(contentsOfFile: path("state/mprisd/route"), encoding: .utf8)
        XCTAssertEqual(stored, headphones + "\n")
        let player = try play(["--device", "first", "--control", FakeSoundCard.control, "--name", "waiting",
                               try track("long.wav", seconds: 30)], environment: environment)
        try await waitUntil("playing") { try await self.playerctl("-p", "waiting", "status") == "Playing" }
        try await waitUntil("the missing pick is reported") { player.stderr.contains("is not available") }
        try card.setHeadphones(plugged: true)
        try await waitUntil("the pick takes effect when the device appears") {
            player.stderr.contains("route: \(headphones) (picked)")
        }
        let status = try await playerctl("-p", "waiting", "status")
        XCTAssertEqual(status, "Playing")
        player.signal(SIGTERM)
        _ = await player.waitForExit()
    }
}
