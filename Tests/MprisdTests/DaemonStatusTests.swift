import DBus
import Foundation
import TestSupport
import XCTest

/// `mprisd silent` and `mprisd status` against the running daemon, and `mprisd status` / `mprisd
/// run` without one.
final class DaemonStatusTests: DaemonTestCase {
    func testSilentModeFollowsTheCommandAndSilencesAmbientSessions() async throws {
        try await startDaemon()
        let chime = try run(["--category", "ambient", "--name", "chime", "--verbose", "--", "sleep", "10"])
        let initial = try await waitForStatus("the ambient session is active") { $0.session(named: "chime")?.active == true }
        XCTAssertFalse(initial.silentMode)

        let on = try await mprisd(["silent", "on"])
        XCTAssertEqual(on.status, 0, on.stderr)
        try await waitForStatus("silent mode on") { $0.silentMode }
        let shown = try await cliStatus()
        XCTAssertTrue(shown.silentMode, "\(shown)")
        await waitForDaemonLog("silent mode on")
        await waitForDaemonLog("(chime,", "silent mode on")
        let told = await eventually { chime.stderr.contains("silentModeChanged(true)") }
        XCTAssertTrue(told, "the ambient session is told to be silent: \(chime.stderr)")

        let text = try await mprisd(["status"])
        XCTAssertEqual(text.status, 0, text.stderr)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains { $0.hasPrefix("Silent mode") && $0.hasSuffix("on") }, text.stdout)
        XCTAssertTrue(lines.contains("Sessions"), text.stdout)
        let header = try XCTUnwrap(lines.first { $0.contains("OWNER") }, text.stdout)
        XCTAssertEqual(header.split(separator: " ").map(String.init), ["ID", "OWNER", "NAME", "CATEGORY", "MODE", "STATE"])
        let id = try XCTUnwrap(shown.session(named: "chime")?.id)
        let row = try XCTUnwrap(lines.first { $0.contains("chime") }, text.stdout)
        XCTAssertEqual(row.split(separator: " ").map(String.init).first, String(id), row)
        XCTAssertTrue(row.contains("ambient") && row.contains("default") && row.hasSuffix("active"), row)
        XCTAssertTrue(lines.contains("Players  none"), text.stdout)
        XCTAssertFalse(text.stdout.contains("\u{1B}["), "no colour off a terminal")

        let off = try await mprisd(["silent", "off"])
        XCTAssertEqual(off.status, 0, off.stderr)
        try await waitForStatus("silent mode off") { !$0.silentMode }
        let shownOff = try await cliStatus()
        XCTAssertFalse(shownOff.silentMode, "\(shownOff)")
        let untold = await eventually { chime.stderr.contains("silentModeChanged(false)") }
        XCTAssertTrue(untold, chime.stderr)
    }

    func testStatusShowsTheActivePlayerAndWhy() async throws {
        try await startDaemon()
        let none = try await mprisd(["status"])
        XCTAssertEqual(none.status, 0, none.stderr)
        XCTAssertTrue(none.stdout.split(separator: "\n").contains("Active player: none"), none.stdout)
        let noneJSON = try await cliStatus()
        XCTAssertNil(noneJSON.activePlayer, noneJSON.json)

        let mpv = try await startMPV()
        let playing = try await waitForStatus("mpv is the active player") { $0.activePlayer?.busName == mpv.busName }
        XCTAssertEqual(playing.activePlayer?.owner, mpv.uniqueName)
        XCTAssertEqual(playing.activePlayer?.status, "Playing")
        XCTAssertTrue(playing.activePlayer?.reason.hasPrefix("playing since ") ?? false, playing.json)
        XCTAssertNotNil(playing.activePlayer?.since)
        XCTAssertEqual(playing.activePlayer?.pinned, false)
        let text = try await mprisd(["status"])
        let line = try XCTUnwrap(text.stdout.split(separator: "\n").first { $0.hasPrefix("Active player: ") }, text.stdout)
        XCTAssertTrue(line.wholeMatch(of: /Active player: org\.mpris\.MediaPlayer2\.mpv \(playing since \d\d:\d\d:\d\d\)/) != nil,
                      String(line))

        try await mpv.pause()
        try await waitForStatus("paused by the user, still the active player") {
            $0.activePlayer?.busName == mpv.busName && $0.activePlayer?.reason.hasPrefix("paused by the user at ") == true
        }
        let stopped = try await mprisd(["control", "stop"])
        XCTAssertEqual(stopped.status, 0, stopped.stderr)
        try await waitForStatus("stopped: no active player") { $0.activePlayer == nil }
        let after = try await mprisd(["status"])
        XCTAssertTrue(after.stdout.split(separator: "\n").contains("Active player: none"), after.stdout)
    }

    func testRunWithADaemonExitsWithTheProgramsStatus() async throws {
        try await startDaemon()
        let result = try await mprisd(["run", "--name", "fails", "--", "sh", "-c", "exit 3"])
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertFalse(result.stderr.contains("without an audio session"), result.stderr)
        await waitForDaemonLog("(fails,", "activated")
        try await waitForStatus("the session went with it") { $0.session(named: "fails") == nil }
    }

    func testWithoutADaemonStatusSaysSoAndRunRunsTheProgramAnyway() async throws {
        let status = try await mprisd(["status"])
        XCTAssertEqual(status.status, 69, "EX_UNAVAILABLE: \(status.stderr)")
        XCTAssertTrue(status.stderr.contains("no policy daemon"), status.stderr)
        XCTAssertEqual(status.stdout, "")
        let json = try await mprisd(["status", "--json"])
        XCTAssertEqual(json.status, 69, json.stderr)

        let marker = path("ran")
        let ran = try await mprisd(["run", "--", "sh", "-c", "touch '\(marker)'"])
        XCTAssertEqual(ran.status, 0, ran.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: marker), "the program ran")
        XCTAssertTrue(ran.stderr.contains("no policy daemon"), ran.stderr)
        XCTAssertTrue(ran.stderr.contains("without an audio session"), ran.stderr)

        let plain = try await mprisd(["run", "--", "true"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertTrue(plain.stderr.contains("running true without an audio session"), plain.stderr)

        let failing = try await mprisd(["run", "--", "sh", "-c", "exit 3"])
        XCTAssertEqual(failing.status, 3, failing.stderr)
        let missing = try await mprisd(["run", "--", "/nonexistent/program"])
        XCTAssertEqual(missing.status, 127, missing.stderr)
    }
}
