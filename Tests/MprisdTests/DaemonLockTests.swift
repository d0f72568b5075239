import DBus
import Foundation
import Glibc
import TestSupport
import XCTest

/// The screen lock (logind's `LockedHint`, a fake logind on a private system bus): locking
/// interrupts ambient sessions and never touches media playback; unlocking lets them resume.
final class DaemonLockTests: DaemonTestCase {
    func testLockingInterruptsAmbientSessionsButNotPlayback() async throws {
        let logind = try await FakeLogind.start(on: try useSystemBus())
        let uid = UInt32(getuid())
        let session = try await logind.addSession("c7", uid: uid)
        try await logind.setDisplay(uid: uid, session: "c7", path: session)
        try await startDaemon()

        let chime = try run(["--category", "ambient", "--name", "chime", "--verbose", "--", "sleep", "10"])
        let player = try await startPlay(name: "tunes")
        try await waitForStatus("the ambient session is active") { $0.session(named: "chime")?.active == true }

        try await logind.setLocked(true, session: session)
        try await waitForStatus("locked, the ambient session interrupted") { status in
            status.locked && status.session(named: "chime")?.interrupted == true
        }
        await waitForDaemonLog("screen locked")
        let locked = try await cliStatus()
        XCTAssertTrue(locked.locked, "\(locked)")
        XCTAssertEqual(locked.session(named: "chime")?.interrupted, true, "\(locked)")
        XCTAssertEqual(locked.session(named: "tunes")?.active, true, "\(locked)")
        XCTAssertEqual(locked.session(named: "tunes")?.interrupted, false, "\(locked)")
        let seen = await eventually { chime.stderr.contains("interruption(") && chime.stderr.contains("began") }
        XCTAssertTrue(seen, "mprisd run --verbose shows the interruption: \(chime.stderr)")
        // The lock never pauses media playback.
        try await assertPlayer("tunes", stays: "Playing", for: .milliseconds(300), context: player.stderr)

        try await logind.setLocked(false, session: session)
        try await waitForStatus("unlocked, the ambient session no longer interrupted") { status in
            !status.locked && status.session(named: "chime")?.interrupted == false
        }
        let stillPlaying = try await playerctl("-p", "tunes", "status")
        XCTAssertEqual(stillPlaying, "Playing")
    }
}
