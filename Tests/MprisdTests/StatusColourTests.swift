import Foundation
import TestSupport
import XCTest

/// `mprisd status` against a running daemon: ANSI colour on a terminal (a pseudo-terminal made
/// by util-linux `script`), none through a pipe and none with `NO_COLOR`, the same text otherwise.
final class StatusColourTests: BusTestCase {
    private var home: String!
    private var daemon: BackgroundProgram?

    override func setUpWithError() throws {
        try super.setUpWithError()
        home = NSTemporaryDirectory() + "mprisd-status-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    }

    override func tearDown() {
        daemon?.kill()
        super.tearDown()
        _ = try? FileManager.default.removeItem(atPath: home)
    }

    private var environment: [String: String] {
        var environment = bus.environment
        environment["XDG_CONFIG_HOME"] = home + "/config"
        environment["XDG_STATE_HOME"] = home + "/state"
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent"
        environment.removeValue(forKey: "NO_COLOR")
        environment["TERM"] = "xterm"
        return environment
    }

    func testColourOnATerminalOnlyAndNeverWithNoColor() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else {
            throw XCTSkip("util-linux script is not installed")
        }
        let mprisd = try Repository.mprisd()
        daemon = try BackgroundProgram(mprisd, [], environment: environment)
        let watcher = try connect()
        let up = try await eventually(timeout: .seconds(10)) { try await watcher.listNames().contains("org.mprisd.AudioPolicy") }
        XCTAssertTrue(up, "the daemon is on the bus: \(daemon?.stderr ?? "")")
        let silent = try await runProgram(mprisd, ["silent", "on"], environment: environment)
        XCTAssertEqual(silent.status, 0, silent.stderr)

        // `script -qec CMD /dev/null`: CMD's standard output is a pseudo-terminal; -e passes its status on.
        let tty = try await runProgram("/usr/bin/script", ["-qec", "\(mprisd) status", "/dev/null"], environment: environment)
        XCTAssertEqual(tty.status, 0, tty.stderr + tty.stdout)
        XCTAssertTrue(tty.stdout.contains("\u{1B}["), "coloured on a terminal: \(tty.stdout.debugDescription)")
        XCTAssertTrue(tty.stdout.contains("Sessions") || tty.stdout.contains("Silent mode"), tty.stdout)

        let piped = try await runProgram(mprisd, ["status"], environment: environment)
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertFalse(piped.stdout.contains("\u{1B}"), "no escape codes through a pipe: \(piped.stdout.debugDescription)")
        XCTAssertNotNil(piped.stdout.firstMatch(of: /\nSilent mode +on\n|^Silent mode +on\n/), piped.stdout)

        var noColor = environment
        noColor["NO_COLOR"] = "1"
        let plainTTY = try await runProgram("/usr/bin/script", ["-qec", "\(mprisd) status", "/dev/null"], environment: noColor)
        XCTAssertEqual(plainTTY.status, 0, plainTTY.stderr)
        XCTAssertFalse(plainTTY.stdout.contains("\u{1B}"), "NO_COLOR wins over the terminal")
        // Same text apart from the terminal's line endings.
        XCTAssertEqual(plainTTY.stdout.replacingOccurrences(of: "\r\n", with: "\n"), piped.stdout)
    }
}
