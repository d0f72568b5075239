import TestSupport
import XCTest

/// The `mprisd` executable's command line: real help, one-line usage errors with status 64.
final class CommandLineTests: XCTestCase {
    private func mprisd(_ arguments: String...) async throws -> ProgramResult {
        let path = Products.path("mprisd")
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw TestSupportError("\(path) is missing: run `swift build` before `swift test`")
        }
        return try await runProgram(path, arguments)
    }

    /// Issue 24: a raw ESC or BEL typed as an argument comes back escaped, from both programs.
    func testControlCharactersInArgumentsAreEchoedEscaped() async throws {
        let typed = "\u{1B}[2J\u{07}"
        let lean = try await runProgram(Products.path("mprisd-control"), [typed])
        let full = try await mprisd("silent", typed)
        for result in [lean, full] {
            XCTAssertEqual(result.status, 64, result.stderr)
            XCTAssertTrue(result.stderr.contains("\\x1b[2J\\x07"), result.stderr)
            XCTAssertFalse(result.stderr.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" }, result.stderr)
        }
    }

    func testEveryCommandHasHelp() async throws {
        let overview = try await mprisd("--help")
        XCTAssertEqual(overview.status, 0)
        for command in ["play", "run", "status", "apps", "silent", "route"] {
            XCTAssertTrue(overview.stdout.contains("mprisd \(command)"), "overview lists \(command)")
            let help = try await mprisd(command, "--help")
            XCTAssertEqual(help.status, 0, command)
            XCTAssertTrue(help.stdout.hasPrefix("Usage: mprisd \(command)"), help.stdout)
            let viaHelp = try await mprisd("help", command)
            XCTAssertEqual(viaHelp.stdout, help.stdout)
        }
    }

    /// `--version` prints the version from `Version.swift` (the line the Debian package's version
    /// is read from by scripts/package.sh), alone on the command line.
    func testVersionIsTheOneInTheSource() async throws {
        let source = try String(contentsOfFile: Repository.root + "/Sources/mprisd/CLI/Version.swift", encoding: .utf8)
        let declared = try XCTUnwrap(source.split(separator: "\n").first { $0.contains("static let string = ") })
            .split(separator: "\"").dropFirst().first.map(String.init)
        let version = try XCTUnwrap(declared)
        let result = try await mprisd("--version")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout.split(separator: "\n").first.map(String.init), "mprisd \(version)")
        XCTAssertTrue(result.stdout.contains("alsa-lib ") && result.stdout.contains("libsndfile"), result.stdout)
        let extra = try await mprisd("--version", "play")
        XCTAssertEqual(extra.status, 64)
        XCTAssertTrue(extra.stderr.contains("--version takes no other arguments"), extra.stderr)
    }

    func testBadArgumentsGiveOneLineAndStatus64() async throws {
        let cases: [([String], String)] = [
            (["frob"], "unknown command 'frob'"),
            (["--bogus"], "unknown option '--bogus'"),
            (["play", "--volume", "2", "x.wav"], "--volume takes a number from 0 to 1"),
            (["play", "--loop", "forever", "x.wav"], "--loop takes one of none, track, playlist"),
            (["play"], "play needs at least one FILE or DIR"),
            (["play", "--device"], "--device needs a value"),
            (["run", "--category", "loud", "--", "true"], "unknown category 'loud'"),
            (["run", "--mode", "x", "--", "true"], "unknown mode 'x'"),
            (["run", "--mix"], "run needs a program after --"),
            (["silent", "maybe"], "silent takes 'on' or 'off'"),
            (["route", "jump"], "route takes 'list' or 'use ID'"),
            (["status", "--yaml"], "unknown option '--yaml'"),
            (["apps", "--yaml"], "unknown option '--yaml'"),
            (["apps", "set", "app", "zoom", "loud"], "'loud' is neither a class"),
            (["play", "--volume", ".5", "--volume=.6", "x.wav"], "--volume given twice"),
        ]
        for (arguments, expected) in cases {
            let result = try await runProgram(Products.path("mprisd"), arguments)
            XCTAssertEqual(result.status, 64, "\(arguments)")
            XCTAssertTrue(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "one line for \(arguments)")
            XCTAssertTrue(result.stdout.isEmpty)
        }
    }

    /// One rule for every command: a bad command line is one short line on stderr (quoting at most
    /// an escaped excerpt of the bad value), nothing on stdout, status 64 — never a silently
    /// changed value, never a whole echo of a huge argument.
    func testEveryBadCommandLineIsOneShortLineAndStatus64() async throws {
        let huge = String(repeating: "x", count: 120_000)
        let cases: [[String]] = [
            // Names that would be changed into another bus name are refused.
            ["play", "--name", "a/b", "x.wav"], ["play", "--name", "a b", "x.wav"], ["play", "--name", "..", "x.wav"],
            ["play", "--name", "é", "x.wav"], ["play", "--name", String(repeating: "n", count: 300), "x.wav"],
            ["play", "--name", "1up", "x.wav"], ["play", "--name", "a.b", "x.wav"], ["play", "--name", "\u{1B}[31mred", "x.wav"],
            // Only plain decimals from 0 to 1.
            ["play", "--volume", "0x1p-1", "x.wav"], ["play", "--volume", "1e-400", "x.wav"], ["play", "--volume", "-0", "x.wav"],
            ["play", "--volume", "nan", "x.wav"], ["play", "--volume", "inf", "x.wav"], ["play", "--volume", "+0.5", "x.wav"],
            ["play", "--volume", "1.5", "x.wav"], ["play", "--volume", "0.5.5", "x.wav"], ["play", "--volume", ".", "x.wav"],
            // Given twice.
            ["play", "--shuffle", "--shuffle", "x.wav"], ["status", "--json", "--json"], ["--verbose", "--verbose"],
            ["run", "--mix", "--mix", "--", "true"], ["run", "--name", "a", "--name=b", "--", "true"],
            ["route", "--control", "a", "--control", "b"], ["play", "--device=null", "--device", "null", "x.wav"],
            // Help takes nothing else.
            ["help", "play", "extra"], ["--help", "extra"], ["play", "--help", "extra"], ["-h", "-h"], ["help", "nosuch"],
            // Empty values.
            ["play", "--device", "", "x.wav"], ["route", "use", ""], ["--control", ""], ["--control="], ["play", ""],
            ["play", "--", ""], ["run", "--", ""], ["run", "--name", "", "--", "true"], ["silent", ""], ["help", ""], [""],
            ["play", "--name=", "x.wav"], ["status", "--json="],
            // Stray arguments and options.
            ["status", "extra"], ["silent", "on", "extra"], ["route", "list", "extra"], ["play", "-v.wav"],
            ["run", "--bogus", "--", "true"],
            // Huge arguments are quoted as excerpts.
            ["play", "--volume", huge, "x.wav"], [huge], ["play", "--" + huge, "x.wav"], ["silent", huge],
            ["route", huge], ["run", "--category", huge, "--", "true"], ["play", "--device", huge + " x", "x.wav"],
            ["apps", huge], ["apps", "set", huge, "x", "call"], ["apps", "set", "app", huge, "call"],
            ["apps", "unset", "binary", "b", huge], ["apps", "set", "app", "a\u{1B}[31m", "call"],
        ]
        for arguments in cases {
            let result = try await runIsolated(arguments)
            let shown = arguments.map { $0.prefix(30) }
            XCTAssertEqual(result.status, 64, "\(shown): \(result.stderr.prefix(300))")
            XCTAssertEqual(result.stderr.split(separator: "\n", omittingEmptySubsequences: false).count, 2,
                           "exactly one line for \(shown): \(result.stderr.prefix(300))")
            XCTAssertLessThan(result.stderr.utf8.count, 200, "\(shown): \(result.stderr.prefix(300))")
            XCTAssertFalse(result.stderr.contains("\u{1B}"), "no terminal escapes: \(shown)")
            XCTAssertEqual(result.stdout, "", "\(shown)")
        }
    }

    /// A flag set in the configuration and given again on the command line is no repetition: the
    /// command line wins.
    func testAConfiguredFlagGivenAgainIsNotTwice() async throws {
        let home = try isolatedHome()
        try "status.json = true\nplay.volume = 0.5\nplay.shuffle = true\n".write(toFile: home + "/config/mprisd/config",
                                                                                  atomically: true, encoding: .utf8)
        let status = try await runIsolated(["status", "--json"], home: home)
        XCTAssertNotEqual(status.status, 64, status.stderr)
        let play = try await runIsolated(["play", "--volume", "2", "--shuffle", "x.wav"], home: home)
        XCTAssertEqual(play.status, 64)
        XCTAssertTrue(play.stderr.hasPrefix("mprisd play: --volume takes a number from 0 to 1"), play.stderr)
    }

    /// A FIFO as the configuration file would block `open()` until a writer came: every command
    /// returns promptly instead, saying in one line that it was ignored.
    func testAFIFOAsTheConfigFileHangsNothing() async throws {
        let home = try isolatedHome()
        let config = home + "/config/mprisd/config"
        XCTAssertEqual(mkfifo(config, 0o600), 0)
        let commands: [([String], Int32)] = [(["status"], 1), (["status", "--json"], 1), (["play", "--help"], 0),
                                             (["play", "--device", "null", "/nonexistent.wav"], 1), (["route", "list"], 0),
                                             (["run", "--", "true"], 0), (["silent", "off"], 0)]
        for (arguments, expected) in commands {
            let started = ContinuousClock.now
            let result = try await runIsolated(arguments, home: home, timeout: .seconds(10))
            XCTAssertLessThan(ContinuousClock.now - started, .seconds(5), "\(arguments) returned promptly")
            XCTAssertEqual(result.status, expected, "\(arguments): \(result.stderr)")
            if arguments != ["play", "--help"] {
                let lines = result.stderr.split(separator: "\n").filter { $0.contains(config) }
                XCTAssertEqual(lines, ["\(config): not a regular file; ignored"], "\(arguments): \(result.stderr)")
            }
        }
    }

    /// A broken configuration is reported briefly: at most 20 problems, then how many more, and a
    /// binary file in one line — never its bytes.
    func testABrokenConfigIsReportedBriefly() async throws {
        let home = try isolatedHome()
        let config = home + "/config/mprisd/config"
        try (0..<500).map { "garbage line \($0)" }.joined(separator: "\n").write(toFile: config, atomically: true, encoding: .utf8)
        let many = try await runIsolated(["silent", "off"], home: home)
        XCTAssertEqual(many.status, 0, many.stderr)
        let lines = many.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 21, many.stderr)
        XCTAssertEqual(lines.last, "\(config): 480 more problems not shown")

        var bytes = (0..<90_000).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }
        bytes[10] = 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: config))
        let binary = try await runIsolated(["silent", "off"], home: home)
        XCTAssertEqual(binary.stderr, "\(config): not UTF-8 text; ignored\n")
    }

    /// Standard output that cannot be written is an error, not a success with the output lost.
    func testAnUnwritableOutputFails() async throws {
        for arguments in [["--help"], ["play", "--help"], ["help", "config"], ["route", "list"], ["silent", "on"]] {
            let result = try await runIsolated(["-c", "exec \"$0\" \"$@\" > /dev/full", try Repository.mprisd()] + arguments,
                                               program: "/bin/sh")
            XCTAssertEqual(result.status, 1, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").last, "mprisd: cannot write the output: No space left on device",
                           "\(arguments): \(result.stderr)")
        }
    }

    // MARK: Helpers

    /// A fresh home for configuration and state, with an empty `mprisd` configuration folder.
    private func isolatedHome() throws -> String {
        let home = NSTemporaryDirectory() + "mprisd-cli-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: home + "/config/mprisd", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: home + "/state", withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: home) }
        return home
    }

    /// Runs `mprisd ARGUMENTS` (or `program`) with its own configuration and state and no bus at all.
    private func runIsolated(_ arguments: [String], home: String? = nil, program: String? = nil,
                             timeout: Duration = .seconds(20)) async throws -> ProgramResult {
        let home = try home ?? isolatedHome()
        let environment = ["PATH": "/usr/bin:/bin", "HOME": home, "XDG_CONFIG_HOME": home + "/config",
                           "XDG_STATE_HOME": home + "/state", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent",
                           "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent", "NO_COLOR": "1"]
        return try await runProgram(try program ?? Repository.mprisd(), arguments, environment: environment, timeout: timeout)
    }
}
