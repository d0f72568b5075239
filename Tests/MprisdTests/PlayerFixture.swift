import DBus
import Foundation
import TestSupport
import XCTest

/// `mprisd play` as a user runs it: a real process on a private session bus, driven by the real
/// `playerctl`, observed through the bus.
class PlayerTestCase: BusTestCase {
    private(set) var directory: URL!
    private var players: [BackgroundProgram] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("mprisd-play-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        for player in players { player.kill() }
        super.tearDown()
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// A stereo 44.1 kHz counting tone of `seconds` named `name`.
    @discardableResult
    func track(_ name: String, seconds: Double) throws -> String {
        let file = path(name)
        try WAVFile.writeCountingTone(seconds: seconds, to: file)
        return file
    }

    /// The test's own configuration and state directories: nothing of the machine's user is read
    /// or changed (`$XDG_CONFIG_HOME/mprisd/config`, `$XDG_STATE_HOME/mprisd/route`, the launchers
    /// setup writes under `$XDG_DATA_HOME`).
    var userDirectories: [String: String] {
        ["XDG_CONFIG_HOME": path("config"), "XDG_STATE_HOME": path("state"), "XDG_DATA_HOME": path("data")]
    }

    /// Starts `mprisd play ARGS` on the test bus.
    func play(_ arguments: [String], environment extra: [String: String] = [:]) throws -> BackgroundProgram {
        var environment = bus.environment.merging(userDirectories) { _, mine in mine }
        for (key, value) in extra { environment[key] = value }
        let player = try BackgroundProgram(Products.path("mprisd"), ["play"] + arguments, environment: environment)
        players.append(player)
        return player
    }

    /// Runs `playerctl ARGS` on the test bus; returns trimmed stdout.
    @discardableResult
    func playerctl(_ arguments: String...) async throws -> String {
        let result = try await runProgram("/usr/bin/playerctl", arguments, environment: bus.environment)
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether `org.mpris.MediaPlayer2.<name>` is on the bus now.
    func hasName(_ name: String, on connection: Connection) async throws -> Bool {
        try await connection.listNames().contains("org.mpris.MediaPlayer2.\(name)")
    }

    /// Waits until `condition` holds (for state another process changes; bounded).
    func waitUntil(_ what: String, timeout: Duration = .seconds(5), file: StaticString = #filePath, line: UInt = #line,
                   _ condition: () async throws -> Bool) async throws {
        let held = try await eventually(timeout: timeout, condition)
        XCTAssertTrue(held, "timed out waiting until \(what)", file: file, line: line)
    }

    /// Asserts that `playerctl -p NAME status` says `status` now and throughout `window` (see
    /// `holds`: once the event that could change it was seen).
    /// `context`: what else to show if it changes (a program's stderr).
    func assertPlayer(_ name: String, stays status: String, for window: Duration = .milliseconds(500),
                      context: @autoclosure () -> String = "",
                      file: StaticString = #filePath, line: UInt = #line) async throws {
        var last = status
        let held = try await holds(for: window) {
            last = try await playerctl("-p", name, "status")
            return last == status
        }
        XCTAssertTrue(held, "\(name) changed to \(last) \(context())", file: file, line: line)
    }
}
