import Foundation
import TestSupport
import XCTest

/// `docs/mprisd.1`: valid roff that `man` renders without a warning, and complete against the
/// program itself — every command of `mprisd --help`, every option of each command's help, every
/// configuration key of `mprisd help config`, the files and the exit statuses.
final class ManPageTests: XCTestCase {
    private let page = Repository.path("docs/mprisd.1")

    /// The page as plain text, one paragraph per line (no hyphenation, no line breaks): rendered
    /// by groff where it is installed, else the roff source with its escapes taken out.
    private func renderedText() async throws -> String {
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") {
            let result = try await runProgram("/usr/bin/groff", ["-man", "-Tutf8", "-rLL=3000n", "-P-cbou", page])
            XCTAssertEqual(result.status, 0, result.stderr)
            return result.stdout
        }
        return try String(contentsOfFile: page, encoding: .utf8).replacingOccurrences(of: "\\-", with: "-")
            .replacingOccurrences(of: "\\fR", with: "").replacingOccurrences(of: "\\fI", with: "")
    }

    func testRoffStructureAndWarningFreeRendering() async throws {
        let source = try String(contentsOfFile: page, encoding: .utf8)
        let lines = source.split(separator: "\n").filter { !$0.hasPrefix(".\\\"") }
        XCTAssertTrue(lines.first?.hasPrefix(".TH MPRISD 1 ") == true, "the first request is .TH: \(lines.first ?? "")")
        let sections = lines.filter { $0.hasPrefix(".SH ") }.map { $0.dropFirst(4).replacingOccurrences(of: "\"", with: "") }
        for required in ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "CONFIGURATION", "FILES", "ENVIRONMENT",
                         "EXIT STATUS", "EXAMPLES", "SEE ALSO"] {
            XCTAssertTrue(sections.contains(required), "section \(required) in \(sections)")
        }
        XCTAssertEqual(sections.prefix(2), ["NAME", "SYNOPSIS"], "NAME, then SYNOPSIS, as man(7) wants")
        XCTAssertTrue(source.contains("\nmprisd \\- "), "NAME is 'mprisd \\- summary' (what whatis and apropos read)")
        XCTAssertFalse(source.unicodeScalars.contains { $0.value > 127 }, "plain ASCII roff: groff warns on anything else")

        if FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") {
            let check = try await runProgram("/usr/bin/groff", ["-man", "-Tutf8", "-ww", "-z", page])
            XCTAssertEqual(check.status, 0, check.stderr)
            XCTAssertEqual(check.stderr, "", "groff -ww warns about nothing")
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/man") else { return }
        var environment = ProcessInfo.processInfo.environment
        environment["MANPAGER"] = "cat"
        environment["MANWIDTH"] = "80"
        let man = try await runProgram("/usr/bin/man", ["-l", page], environment: environment)
        XCTAssertEqual(man.status, 0, man.stderr)
        XCTAssertEqual(man.stderr, "", "man -l renders without complaint")
        XCTAssertTrue(man.stdout.contains("MPRISD(1)"), man.stdout)
        for heading in ["NAME", "SYNOPSIS", "DESCRIPTION", "EXIT STATUS"] {
            XCTAssertTrue(man.stdout.contains("\n\(heading)\n"), "rendered heading \(heading)")
        }
    }

    func testEveryCommandOptionKeyFileAndStatusIsDocumented() async throws {
        let mprisd = try Repository.mprisd()
        let text = try await renderedText()
        let overview = try await runProgram(mprisd, ["--help"])
        XCTAssertEqual(overview.status, 0)
        // Every command the overview lists ("  mprisd play [options] …").
        let commands = overview.stdout.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ")
            guard line.hasPrefix("  mprisd "), words.count > 1, words[1].first?.isLetter == true else { return nil }
            return String(words[1])
        }
        XCTAssertEqual(Set(commands), ["play", "run", "status", "doctor", "setup", "apps", "silent", "route", "players", "player", "control"], overview.stdout)
        for command in commands + ["daemon"] {
            let help = try await runProgram(mprisd, ["help", command])
            XCTAssertEqual(help.status, 0, command)
            if command != "daemon" { XCTAssertTrue(text.contains("mprisd \(command)"), "the page has mprisd \(command)") }
            for option in Repository.options(inHelp: help.stdout) where option != "--help" {
                XCTAssertTrue(text.contains(option), "mprisd \(command) \(option) is documented")
            }
        }
        let run = try await runProgram(mprisd, ["run", "--help"])
        for value in Repository.values(of: "--category", inHelp: run.stdout) + Repository.values(of: "--mode", inHelp: run.stdout) {
            XCTAssertTrue(text.contains(value), "run value \(value) is documented")
        }

        // Every configuration key, as `mprisd help config` shows it ("  play.volume = 0 to 1").
        let config = try await runProgram(mprisd, ["help", "config"])
        XCTAssertEqual(config.status, 0)
        let listing = config.stdout.components(separatedBy: "\nExample:").first ?? ""
        let keys = listing.split(separator: "\n").filter { $0.hasPrefix("  ") && $0.contains(" = ") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertGreaterThan(keys.count, 15, config.stdout)
        for key in keys {
            XCTAssertTrue(text.contains(key), "configuration line '\(key)' is in the page")
        }

        for file in ["$XDG_CONFIG_HOME/mprisd/config", "$XDG_CONFIG_HOME/mprisd/apps", "$XDG_STATE_HOME/mprisd/route", "$XDG_STATE_HOME/mprisd/silent",
                     "$XDG_STATE_HOME/mprisd/journal", "bash-completion/completions/mprisd", "zsh/site-functions/_mprisd"] {
            XCTAssertTrue(text.contains(file), "file \(file) is documented")
        }
        let exitStatus = try XCTUnwrap(text.range(of: "EXIT STATUS").map { String(text[$0.upperBound...]) })
        for status in ["0", "1", "64", "69", "127"] {
            XCTAssertTrue(exitStatus.contains("\n       \(status)\n") || exitStatus.contains(" \(status) "),
                          "exit status \(status) is documented")
        }
        XCTAssertTrue(text.contains("EXAMPLES") && text.contains("mprisd play --name music"), "examples")
    }
}
