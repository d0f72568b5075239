import DBus
import Foundation
import TestSupport
import XCTest

/// Before sleep (issue 16): logind's `PrepareForSleep(true)` (a fake logind on a private system
/// bus) pauses every playing session — a `mprisd play` client and a real mpv — and the wake-up,
/// `PrepareForSleep(false)`, resumes none of them; the user's next Play plays. The daemon holds
/// logind's delay lock while awake and releases it once the pauses are out. With
/// `daemon.pause-before-sleep = false` nothing is paused, the sleep is never delayed, and the log
/// says why.
final class DaemonSleepTests: DaemonTestCase {
    func testPrepareForSleepPausesEveryPlayerAndTheWakeUpResumesNone() async throws {
        let logind = try await FakeLogind.start(on: try useSystemBus())
        try await startDaemon()
        // Two non-mixing players cannot play at once under the policy: our client first, then mpv
        // once the client is paused (mpv starting would otherwise interrupt it).
        let tunes = try await startPlay(name: "tunes")
        try await waitUntil("the daemon holds logind's delay lock") { try await self.lockHolders(logind) == ["sleep mprisd delay"] }

        try await logind.prepareForSleep(true)
        try await waitUntil("tunes is paused before the sleep") { try await self.playerctl("-p", "tunes", "status") == "Paused" }
        await waitForDaemonLog("the system is going to sleep", "paused")
        try await waitUntil("the delay lock is released once the pauses are out") { try await self.lockHolders(logind).isEmpty }
        try await waitForStatus("tunes's session is interrupted by the sleep") { status in
            status.session(named: "tunes")?.interrupted == true && status.session(named: "tunes")?.active == false
        }

        try await logind.prepareForSleep(false)
        await waitForDaemonLog("the system woke up")
        try await waitUntil("a new delay lock for the next sleep") { try await self.lockHolders(logind) == ["sleep mprisd delay"] }
        try await waitForStatus("the sleep's interruption ended") { status in
            status.session(named: "tunes")?.interrupted == false
        }
        try await assertPlayer("tunes", stays: "Paused", for: .seconds(1), context: daemon?.stderr ?? "")
        XCTAssertFalse(tunes.stderr.contains("resum"), "the client was not told to resume: \(tunes.stderr)")

        let mpv = try await startMPV()
        try await logind.prepareForSleep(true)
        try await waitUntil("mpv is paused before the sleep") { try await mpv.playbackStatus() == "Paused" }
        await waitForDaemonLog("paused", mpv.busName, "interrupted by the coming sleep")
        try await logind.prepareForSleep(false)
        try await waitForStatus("the daemon saw mpv paused") { $0.player(mpv.busName)?.status == "Paused" }
        let woke = await eventually { (self.daemon?.stderr ?? "").components(separatedBy: "the system woke up").count == 3 }
        XCTAssertTrue(woke, "the second wake-up is logged: \(daemon?.stderr ?? "")")
        try await assertStays(mpv, "Paused", for: .seconds(1))

        // The user's next Play resumes as usual (mpv is paused, nothing interrupts tunes).
        _ = try await playerctl("-p", "tunes", "play")
        try await waitUntil("tunes plays again on the user's Play") { try await self.playerctl("-p", "tunes", "status") == "Playing" }
        try await waitForStatus("tunes's session is active again") { $0.session(named: "tunes")?.active == true }
    }

    func testWithTheSettingOffNothingIsPausedAndTheLogSaysWhy() async throws {
        let logind = try await FakeLogind.start(on: try useSystemBus())
        let directory = userDirectories["XDG_CONFIG_HOME", default: ""] + "/mprisd"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try "daemon.pause-before-sleep = false\n".write(toFile: directory + "/config", atomically: true, encoding: .utf8)
        try await startDaemon()
        let mpv = try await startMPV()
        let holders = try await lockHolders(logind)
        XCTAssertEqual(holders, [], "a daemon that pauses nothing never delays the sleep")

        try await logind.prepareForSleep(true)
        await waitForDaemonLog("the system is going to sleep", "nothing is paused", "daemon.pause-before-sleep is false")
        try await assertStays(mpv, "Playing", for: .seconds(1))
        let status = try await busStatus()
        XCTAssertEqual(status.player(mpv.busName)?.status, "Playing", "\(status)")
        try await logind.prepareForSleep(false)
        await waitForDaemonLog("the system woke up")
        try await assertStays(mpv, "Playing")
    }

    /// logind's inhibitor locks as `what who mode`.
    private func lockHolders(_ logind: FakeLogind) async throws -> [String] {
        try await logind.inhibitors().map { "\($0.what) \($0.who) \($0.mode)" }
    }
}
