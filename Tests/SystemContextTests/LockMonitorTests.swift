import DBus
import Foundation
import Glibc
import SystemContext
import TestSupport
import XCTest

/// `LockMonitor` against python3-dbusmock's logind template on a private system bus: the user's
/// display session locking and unlocking, the fallbacks when the user has no display session,
/// logind absent, appearing late, killed and restarted.
final class LockMonitorTests: XCTestCase {
    private let uid = getuid()

    // MARK: The display session

    func testUnlockedAtStartThenLockAndUnlock() async throws {
        let rig = try await LockRig.withLogind()
        defer { rig.stop() }
        let session = try await rig.logind().addSession("c1", uid: uid)
        try await rig.logind().setDisplay(uid: uid, session: "c1", path: session)
        try await rig.start(defaultInit: true)
        XCTAssertFalse(rig.monitor.isLocked)
        XCTAssertEqual(rig.monitor.sessionPath?.rawValue, session)
        XCTAssertEqual(rig.events.elements, [], "an unlocked session at start reports nothing")

        try await rig.logind().setLocked(true, session: session)
        try await rig.waitFor([true])
        XCTAssertTrue(rig.monitor.isLocked)

        try await rig.logind().setLocked(false, session: session)
        try await rig.waitFor([true, false])
        XCTAssertFalse(rig.monitor.isLocked)
    }

    func testLockedAtStartIsReportedBeforeStartCompletes() async throws {
        let rig = try await LockRig.withLogind()
        defer { rig.stop() }
        let session = try await rig.logind().addSession("c1", uid: uid)
        try await rig.logind().setDisplay(uid: uid, session: "c1", path: session)
        try await rig.logind().setLocked(true, session: session)
        try await rig.start()
        XCTAssertTrue(rig.monitor.isLocked)
        XCTAssertEqual(rig.events.elements, [true])
    }

    func testDisplayMovingToAnotherSessionFollowsThatSession() async throws {
        let rig = try await LockRig.withLogind()
        defer { rig.stop() }
        let first = try await rig.logind().addSession("c1", uid: uid)
        let second = try await rig.logind().addSession("c2", seat: "seat1", uid: uid)
        try await rig.logind().setDisplay(uid: uid, session: "c1", path: first)
        try await rig.start()

        try await rig.logind().setLocked(true, session: second)  // not the display session: ignored
        try await rig.logind().setDisplay(uid: uid, session: "c2", path: second)
        try await rig.waitFor([true])
        XCTAssertEqual(rig.monitor.sessionPath?.rawValue, second)

        try await rig.logind().setLocked(true, session: first)  // no longer followed
        try await rig.logind().setLocked(false, session: second)
        try await rig.waitFor([true, false])
    }

    func testFollowedSessionEndingFallsBackToAnotherSession() async throws {
        let rig = try await LockRig.withLogind()
        defer { rig.stop() }
        let display = try await rig.logind().addSession("c1", uid: uid)
        let other = try await rig.logind().addSession("c2", seat: "seat1", uid: uid)
        try await rig.logind().setDisplay(uid: uid, session: "c1", path: display)
        try await rig.logind().setLocked(true, session: display)
        try await rig.start()
        XCTAssertEqual(rig.events.elements, [true])

        try await rig.logind().removeSession("c1", path: display)
        try await rig.waitFor([true, false])
        XCTAssertEqual(rig.monitor.sessionPath?.rawValue, other)
    }

    // MARK: Fallbacks

    func testWithoutDisplayTheSessionOfXDGSessionIDIsFollowed() async throws {
        let rig = try await LockRig.withLogind()
        defer { rig.stop() }
        let other = try await rig.logind().addSession("c1", uid: uid)
        let mine = try await rig.logind().addSession("c7", uid: uid)
        try await rig.start(sessionID: "c7")
        XCTAssertEqual(rig.monitor.sessionPath?.rawValue, mine)

        try await rig.logind().setLocked(true, session: other)  // ignored; the next one is the barrier
        try await rig.logind().setLocked(true, session: mine)
        try await rig.waitFor([true])
    }

    func testWithoutDisplayOrXDGSessionIDAnySessionOfTheUserIsFollowed() async throws {
        let rig = try await LockRig.withLogind()
        defer { rig.stop() }
        let stranger = try await rig.logind().addSession("c1", uid: uid &+ 1, user: "someone-else")
        try await rig.logind().setLocked(true, session: stranger)
        let mine = try await rig.logind().addSession("c2", uid: uid)
        // An XDG_SESSION_ID logind does not know is passed over.
        try await rig.start(sessionID: "c99")
        XCTAssertEqual(rig.monitor.sessionPath?.rawValue, mine, "another user's session is never followed")
        XCTAssertFalse(rig.monitor.isLocked)

        try await rig.logind().setLocked(true, session: mine)
        try await rig.waitFor([true])
    }

    // MARK: logind absent, late, restarted

    func testNoLogindIsUnlockedAndNoError() async throws {
        let rig = try await LockRig.withoutLogind()
        defer { rig.stop() }
        try await rig.start()  // completes with success
        XCTAssertFalse(rig.monitor.isLocked)
        XCTAssertFalse(rig.monitor.isLogindRunning)
        XCTAssertNil(rig.monitor.sessionPath)
        XCTAssertEqual(rig.events.elements, [])
    }

    func testLogindAppearingLaterIsPickedUp() async throws {
        let rig = try await LockRig.withoutLogind()
        defer { rig.stop() }
        try await rig.start()
        XCTAssertFalse(rig.monitor.isLogindRunning)

        let logind = try await rig.startLogind()
        let running = await eventually { rig.monitor.isLogindRunning }
        XCTAssertTrue(running)
        let session = try await logind.addSession("c3", uid: uid)
        try await logind.setDisplay(uid: uid, session: "c3", path: session)
        try await logind.setLocked(true, session: session)
        try await rig.waitFor([true])
        XCTAssertEqual(rig.monitor.sessionPath?.rawValue, session)
    }

    func testLogindKilledUnlocksAndARestartedOneIsFollowed() async throws {
        let rig = try await LockRig.withLogind()
        defer { rig.stop() }
        let session = try await rig.logind().addSession("c1", uid: uid)
        try await rig.logind().setDisplay(uid: uid, session: "c1", path: session)
        try await rig.logind().setLocked(true, session: session)
        try await rig.start()
        XCTAssertEqual(rig.events.elements, [true])

        rig.killLogind()  // only the name goes
        try await rig.waitFor([true, false])
        XCTAssertFalse(rig.monitor.isLogindRunning)
        XCTAssertNil(rig.monitor.sessionPath)

        let logind = try await rig.startLogind()
        let again = try await logind.addSession("c1", uid: uid)
        try await logind.setDisplay(uid: uid, session: "c1", path: again)
        try await logind.setLocked(true, session: again)
        try await rig.waitFor([true, false, true])
    }

    // MARK: Life cycle

    func testStoppedMonitorReportsNothingMore() async throws {
        let rig = try await LockRig.withLogind()
        defer { rig.stop() }
        let session = try await rig.logind().addSession("c1", uid: uid)
        try await rig.logind().setDisplay(uid: uid, session: "c1", path: session)
        try await rig.start()
        let witness = try await LockRig(bus: rig.bus)
        defer { witness.stop() }
        try await witness.start()

        rig.monitor.stop()
        try await rig.logind().setLocked(true, session: session)
        try await witness.waitFor([true])
        XCTAssertEqual(rig.events.elements, [], "a stopped monitor reports nothing")
        XCTAssertFalse(rig.monitor.isLocked)
        let again = await rig.startError()
        XCTAssertNotNil(again, "a stopped monitor does not start again")
    }

    // MARK: Idle

    func testNoWakeUpsWhileNothingChanges() async throws {
        let rig = try await LockRig.withLogind()
        defer { rig.stop() }
        let session = try await rig.logind().addSession("c1", uid: uid)
        try await rig.logind().setDisplay(uid: uid, session: "c1", path: session)
        try await rig.start()

        let thread = try await rig.ioThreadID()
        let asleep = await ProcessThreads.waitUntilAsleepInPoll([thread])
        XCTAssertTrue(asleep, "the I/O thread did not go back to sleep after the ping")
        let before = try ProcessThreads.contextSwitches(thread)
        // time is the subject here: a second of idleness, in which the thread may not wake
        try await Task.sleep(for: .seconds(1))
        let after = try ProcessThreads.contextSwitches(thread)
        XCTAssertEqual(after, before, "the monitor's I/O thread woke up while nothing changed")

        // The same measurement does see the thread work when the screen locks.
        try await rig.logind().setLocked(true, session: session)
        try await rig.waitFor([true])
        XCTAssertGreaterThan(try ProcessThreads.contextSwitches(thread), after)
    }

    func testStartOnAClosedConnectionFailsWithoutCrashing() async throws {
        let rig = try await LockRig.withoutLogind()
        defer { rig.stop() }
        rig.connection.close()
        let error = await rig.startError()
        XCTAssertEqual(error?.name, "org.freedesktop.DBus.Error.Disconnected")
        XCTAssertFalse(rig.monitor.isLocked)
    }
}
