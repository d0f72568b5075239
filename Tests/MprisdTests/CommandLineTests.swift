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

    func testEveryCommandHasHelp() async throws {
        let overview = try await mprisd("--help")
        XCTAssertEqual(overview.status, 0)
        for command in ["play", "run", "status", "silent", "route"] {
            XCTAssertTrue(overview.stdout.contains("mprisd \(command)"), "overview lists \(command)")
            let help = try await mprisd(command, "--help")
            XCTAssertEqual(help.status, 0, command)
            XCTAssertTrue(help.stdout.hasPrefix("Usage: mprisd \(command)"), help.stdout)
            let viaHelp = try await mprisd("help", command)
            XCTAssertEqual(viaHelp.stdout, help.stdout)
        }
    }

    func testBadArgumentsGiveOneLineAndStatus64() async throws {
        let cases: [([String], String)] = [
            (["frob"], "unknown command 'frob'"),
            (["--bogus"], "unknown option '--bogus'"),
            (["play", "--volume", "2", "x.wav"], "--volume takes a number from 0 to 1"),
            (["play", "--loop", "forever", "x.wav"], "--loop takes none, track or playlist"),
            (["play"], "play needs at least one FILE or DIR"),
            (["play", "--device"], "--device needs a value"),
            (["run", "--category", "loud", "--", "true"], "unknown category 'loud'"),
            (["run", "--mode", "x", "--", "true"], "unknown mode 'x'"),
            (["run", "--mix"], "run needs a program after --"),
            (["silent", "maybe"], "silent takes 'on' or 'off'"),
            (["route", "jump"], "route takes 'list' or 'use ID'"),
            (["status", "--yaml"], "unknown option '--yaml'"),
        ]
        for (arguments, expected) in cases {
            let result = try await runProgram(Products.path("mprisd"), arguments)
            XCTAssertEqual(result.status, 64, "\(arguments)")
            XCTAssertTrue(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "one line for \(arguments)")
            XCTAssertTrue(result.stdout.isEmpty)
        }
    }
}
