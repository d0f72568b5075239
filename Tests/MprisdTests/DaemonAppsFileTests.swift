import Foundation
import TestSupport
import XCTest

/// The running daemon follows the apps file: `mprisd apps set` and a hand edit are each one
/// reload (logged with the number of rules), a bad line is logged with its number once per
/// reload, and the problems of the file at start are logged once. `mprisd apps` against the real
/// daemon lists its apps and the rules.
final class DaemonAppsFileTests: DaemonTestCase {
    private var appsFile: String { path("config") + "/mprisd/apps" }

    /// The daemon's log lines containing `fragment`.
    private func logLines(_ fragment: String) -> [Substring] {
        (daemon?.stderr ?? "").split(separator: "\n").filter { $0.contains(fragment) }
    }

    func testTheDaemonReloadsAfterAppsSetAndReportsABadLineWithItsNumber() async throws {
        try await startDaemon()
        XCTAssertTrue(logLines("apps file reloaded").isEmpty, "nothing to reload at start")

        let set = try await mprisd(["apps", "set", "app", "ZOOM VoiceEngine", "call"])
        XCTAssertEqual(set.status, 0, set.stderr)
        await waitForDaemonLog("apps file reloaded: 1 rules", timeout: .seconds(10))

        // A hand edit adding a bad line, in place as an editor would.
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: appsFile))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("app x = bogus\nbinary zoom = ignore\n".utf8))
        try handle.close()
        await waitForDaemonLog("apps file reloaded: 2 rules", timeout: .seconds(10))
        await waitForDaemonLog("warning: \(appsFile):2: 'bogus' is neither a class", timeout: .seconds(10))

        let unset = try await mprisd(["apps", "unset", "app", "zoom voiceengine"])
        XCTAssertEqual(unset.status, 0, unset.stderr)
        await waitForDaemonLog("apps file reloaded: 1 rules", timeout: .seconds(10))
        try await waitUntil("the third reload is logged", timeout: .seconds(10)) { self.logLines("apps file reloaded").count == 3 }
        await waitForDaemonLog("warning: \(appsFile):1: 'bogus' is neither a class", timeout: .seconds(10))
        XCTAssertEqual(logLines("'bogus' is neither a class").count, 2, "once per reload: \(daemon?.stderr ?? "")")

        // The same text again (an editor saving without a change) is no reload.
        let same = try String(contentsOfFile: appsFile, encoding: .utf8)
        try same.write(toFile: appsFile, atomically: true, encoding: .utf8)
        let listed = try await mprisd(["apps"])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertTrue(listed.stdout.hasPrefix("Apps"), "the daemon's apps come first: \(listed.stdout)")
        XCTAssertTrue(listed.stdout.contains("Rules  \(appsFile)\n"), listed.stdout)
        XCTAssertTrue(listed.stdout.contains("binary zoom  ignore"), listed.stdout)
        let unchanged = await holds(for: .milliseconds(300)) { self.logLines("apps file reloaded").count == 3 }
        XCTAssertTrue(unchanged, "an unchanged file is not reloaded: \(daemon?.stderr ?? "")")
    }

    /// The `mprisd apps` snippet of docs/calls-and-prompts.md ("Calls and prompts from any app"), line
    /// by line under `set -e`, against the running daemon: every line works, and the file ends as it says.
    func testTheCallsAndPromptsSnippetRuns() async throws {
        try await startDaemon()
        let blocks = try ReadmeSnippetTests.shellBlocks(under: .apps)
        let snippet = try XCTUnwrap(blocks.first { $0.contains("mprisd apps set") }, "\(blocks)")
        let path = Products.directory.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let result = try await runProgram("/bin/bash", ["--norc", "--noprofile", "-e", "-c", snippet],
                                          environment: environment(["PATH": path]), timeout: .seconds(60))
        XCTAssertEqual(result.status, 0, "\(result.stdout)\n\(result.stderr)")
        XCTAssertEqual(try String(contentsOfFile: appsFile, encoding: .utf8),
                       "app \"ZOOM VoiceEngine\" = call\nflatpak us.zoom.Zoom = playAndRecord voiceChat\n")
        await waitForDaemonLog("apps file reloaded: 2 rules", timeout: .seconds(10))
    }

    func testTheProblemsOfTheFileAtStartAreLoggedOnce() async throws {
        try FileManager.default.createDirectory(atPath: path("config") + "/mprisd", withIntermediateDirectories: true)
        try "# rules\nwhat is this\napp Twinkle = call\n".write(toFile: appsFile, atomically: true, encoding: .utf8)
        try await startDaemon()
        await waitForDaemonLog("warning: \(appsFile):2: expected 'app NAME = ACTION'", timeout: .seconds(10))
        XCTAssertEqual(logLines(":2: expected").count, 1, daemon?.stderr ?? "")
        XCTAssertTrue(logLines("apps file reloaded").isEmpty, "reading at start is not a reload")
    }
}
