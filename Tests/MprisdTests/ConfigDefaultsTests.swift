import DBus
import Foundation
import TestSupport
import XCTest

/// Defaults of the flags from `$XDG_CONFIG_HOME/mprisd/config`: `mprisd play` uses them, a flag
/// on the command line wins, and a bad line is reported with its number while the rest applies.
final class ConfigDefaultsTests: PlayerTestCase {
    private var configFile: String { path("config") + "/mprisd/config" }

    private func writeConfig(_ text: String) throws {
        try FileManager.default.createDirectory(atPath: path("config") + "/mprisd", withIntermediateDirectories: true)
        try text.write(toFile: configFile, atomically: true, encoding: .utf8)
    }

    private func stop(_ player: BackgroundProgram, name: String) async throws {
        try await playerctl("-p", name, "stop")
        let status = await player.waitForExit()
        XCTAssertEqual(status, 0, player.stderr)
    }

    func testPlayUsesTheConfiguredDefaultsAndFlagsWin() async throws {
        try writeConfig("""
            # the user's defaults
            play.device = null
            play.name = fromconfig
            play.volume = 0.25
            play.shuffle = true
            """)
        let watcher = try connect()
        let file = try track("a.wav", seconds: 8)

        let configured = try play([file])
        try await waitUntil("the configured name appears") { try await self.hasName("fromconfig", on: watcher) }
        let volume = try await playerctl("-p", "fromconfig", "volume")
        XCTAssertEqual(Double(volume), 0.25, "play.volume")
        let shuffle = try await playerctl("-p", "fromconfig", "shuffle")
        XCTAssertEqual(shuffle, "On", "play.shuffle")
        XCTAssertEqual(configured.stderr.contains("mprisd/config:"), false, "a clean file reports nothing: \(configured.stderr)")
        try await stop(configured, name: "fromconfig")

        let overridden = try play(["--name", "fromflags", "--volume=0.5", "--no-shuffle", file])
        try await waitUntil("the flag's name appears") { try await self.hasName("fromflags", on: watcher) }
        let flagVolume = try await playerctl("-p", "fromflags", "volume")
        XCTAssertEqual(Double(flagVolume), 0.5, "--volume wins over play.volume")
        let flagShuffle = try await playerctl("-p", "fromflags", "shuffle")
        XCTAssertEqual(flagShuffle, "Off", "--no-shuffle undoes play.shuffle")
        let configuredName = try await hasName("fromconfig", on: watcher)
        XCTAssertFalse(configuredName)
        try await stop(overridden, name: "fromflags")
    }

    func testABadLineIsReportedWithItsNumberAndTheRestApplies() async throws {
        try writeConfig("""
            play.device = null
            play.volume = 2
            play.nmae = typo
            just some words
            play.name = stillapplies
            play.loop = forever
            """)
        let watcher = try connect()
        let player = try play([try track("a.wav", seconds: 8)])
        try await waitUntil("the name of line 5 appears") { try await self.hasName("stillapplies", on: watcher) }
        let volume = try await playerctl("-p", "stillapplies", "volume")
        XCTAssertEqual(Double(volume), 1, "the bad volume was skipped: the built-in default holds")
        let loop = try await playerctl("-p", "stillapplies", "loop")
        XCTAssertEqual(loop, "None")
        try await stop(player, name: "stillapplies")

        let reported = player.stderr.split(separator: "\n").filter { $0.hasPrefix(configFile + ":") }.map(String.init)
        XCTAssertEqual(reported.count, 4, player.stderr)
        XCTAssertTrue(reported.contains { $0.hasPrefix("\(configFile):2: play.volume") && $0.contains("0 to 1") }, "\(reported)")
        XCTAssertTrue(reported.contains { $0.hasPrefix("\(configFile):3: unknown setting 'play.nmae'") }, "\(reported)")
        XCTAssertTrue(reported.contains { $0.hasPrefix("\(configFile):4: expected 'key = value'") }, "\(reported)")
        XCTAssertTrue(reported.contains { $0.hasPrefix("\(configFile):6: play.loop") && $0.contains("forever") }, "\(reported)")
        let numbers = reported.map { $0.dropFirst(configFile.count + 1).prefix { $0.isNumber } }
        XCTAssertEqual(numbers, ["2", "3", "4", "6"], "in file order, one line each")
    }

    func testHelpListsTheKeys() async throws {
        let help = try await runProgram(try Repository.mprisd(), ["play", "--help"])
        for key in ["play.device = PCM", "play.volume = 0 to 1", "play.shuffle = true|false", "--no-shuffle"] {
            XCTAssertTrue(help.stdout.contains(key), "play --help shows \(key)")
        }
        let config = try await runProgram(try Repository.mprisd(), ["help", "config"])
        XCTAssertEqual(config.status, 0)
        for key in ["daemon.verbose", "run.category", "run.notify-others", "status.json", "route.control", "output.ID = PCM"] {
            XCTAssertTrue(config.stdout.contains(key), "help config lists \(key)")
        }
    }

    /// Fifty thousand configured outputs (under the 1 MiB limit) are all read, and `play` starts
    /// as fast as without them: every step from the file to the policy engine is linear.
    func testFiftyThousandConfiguredOutputsAreReadAndPlayStartsPromptly() async throws {
        let count = 50_000
        let outputs = (0..<count).map { "output.o\(String($0, radix: 36))=null" }.joined(separator: "\n")
        try writeConfig("play.device = null\nplay.name = many\n" + outputs + "\n")
        let watcher = try connect()
        let started = ContinuousClock.now
        let player = try play([try track("a.wav", seconds: 1)])
        try await waitUntil("the player appears", timeout: .seconds(20)) { try await self.hasName("many", on: watcher) }
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(10), "play started promptly")
        let status = await player.waitForExit(timeout: .seconds(20))
        XCTAssertEqual(status, 0, player.stderr)
        XCTAssertFalse(player.stderr.contains("mprisd/config"), "every line was understood: \(player.stderr.prefix(300))")

        let routes = try await runProgram(try Repository.mprisd(), ["route", "list"],
                                          environment: bus.environment.merging(userDirectories) { _, mine in mine })
        XCTAssertEqual(routes.status, 0, routes.stderr)
        XCTAssertEqual(routes.stdout.split(separator: "\n").filter { $0.contains("ready (null)") }.count, count)
    }
}
