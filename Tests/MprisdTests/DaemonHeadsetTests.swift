import DBus
import Foundation
import TestSupport
import XCTest

/// The daemon registers the active player with BlueZ (the dbusmock bluetoothd on a private system
/// bus) and the headset's buttons, sent as bluetoothd sends them, reach it; a running mpris-proxy
/// is reported with what to do. The active player is the arbiter's (`PlayerArbiter`).
final class DaemonHeadsetTests: DaemonTestCase {
    func testTheActivePlayerIsRegisteredAndTheHeadsetPausesIt() async throws {
        let system = try useSystemBus()
        let bluez = try await FakeBluez.start(on: system)
        defer { bluez.stop() }
        try await startDaemon()
        let first = try await startMPV()
        let registered = try await bluez.waitForRegisteredPlayer { $0.path.hasSuffix(Self.element(first.uniqueName)) }
        XCTAssertEqual(registered.properties["PlaybackStatus"]?.string, "Playing")

        let second = try await startMPV()
        try await bluez.waitForUnregisteredPlayer(registered.path)
        let now = try await bluez.waitForRegisteredPlayer { $0.path.hasSuffix(Self.element(second.uniqueName)) }
        XCTAssertEqual(bluez.currentPlayers.map(\.path), [now.path], "exactly one player registered")

        // The second player interrupted the first (the policy paused it): a PLAY that reached the
        // wrong player would start it.
        let interrupted = await first.waitForStatus("Paused")
        XCTAssertTrue(interrupted, "the policy pauses the first player: \(daemon?.stderr ?? "")")
        try await press("Play", now.path, bluez: bluez, system: system)
        await waitForDaemonLog("headset: Play → \(second.busName)")
        try await assertStays(first, "Paused")

        try await press("Pause", now.path, bluez: bluez, system: system)
        let paused = await second.waitForStatus("Paused")
        XCTAssertTrue(paused, "the headset's PAUSE reaches the active player: \(daemon?.stderr ?? "")")
    }

    func testTheDaemonFollowsTheSystemBusOnOneConnection() async throws {
        let system = try useSystemBus()
        let bluez = try await FakeBluez.start(on: system)
        defer { bluez.stop() }
        let logind = try await FakeLogind.start(on: system)
        defer { logind.stop() }
        let daemon = try await startDaemon()
        let mpv = try await startMPV()
        _ = try await bluez.waitForRegisteredPlayer { $0.path.hasSuffix(Self.element(mpv.uniqueName)) }
        // BlueZ for the routes and the headset, logind's lock and sleep: all on one connection.
        let connections = try await system.connections(ofProcess: daemon.pid)
        XCTAssertEqual(connections.count, 1, "the daemon's system-bus connections: \(connections)")
    }

    func testNothingIsRegisteredOnceThePlayerIsGone() async throws {
        let system = try useSystemBus()
        let bluez = try await FakeBluez.start(on: system)
        defer { bluez.stop() }
        try await startDaemon()
        let mpv = try await startMPV()
        let registered = try await bluez.waitForRegisteredPlayer { $0.path.hasSuffix(Self.element(mpv.uniqueName)) }
        mpv.kill()
        try await bluez.waitForUnregisteredPlayer(registered.path)
        XCTAssertEqual(bluez.currentPlayers.map(\.path), [])
    }

    func testAStoppingDaemonWithdrawsItsPlayer() async throws {
        let system = try useSystemBus()
        let bluez = try await FakeBluez.start(on: system)
        defer { bluez.stop() }
        let daemon = try await startDaemon()
        let mpv = try await startMPV()
        let registered = try await bluez.waitForRegisteredPlayer { $0.path.hasSuffix(Self.element(mpv.uniqueName)) }

        daemon.signal(SIGTERM)
        let status = await daemon.waitForExit()
        XCTAssertEqual(status, 0, daemon.stderr)
        try await bluez.waitForUnregisteredPlayer(registered.path)
    }

    func testTheDaemonWakesUpZeroTimesWhileTheRegisteredPlayerIsQuiet() async throws {
        try XCTSkipUnless(MPVPlayer.isAvailable, "mpv and mpv-mpris are not installed")
        let system = try useSystemBus()
        let bluez = try await FakeBluez.start(on: system)
        defer { bluez.stop() }
        let daemon = try await startDaemon()
        // A long track: mpv says nothing while it plays it (a loop would be a Seeked).
        let file = path("long.wav")
        try WAVFile.writeCountingTone(seconds: 30, to: file)
        let mpv = try await MPVPlayer.start(bus: bus, file: file)
        defer { mpv.kill() }
        _ = try await bluez.waitForRegisteredPlayer { $0.path.hasSuffix(Self.element(mpv.uniqueName)) }

        // Time is the subject here: wake-ups counted over two idle seconds, after half a second
        // for the last replies to land (BENCHMARKS.md, idle wake-ups).
        try await Task.sleep(for: .milliseconds(500))
        let before = daemon.contextSwitches()
        try await Task.sleep(for: .seconds(2))
        let after = daemon.contextSwitches()
        XCTAssertEqual(after - before, 0, "the daemon woke up while nothing happened\n\(daemon.stderr)")
    }

    func testARunningMPRISProxyIsReportedWithWhatToDo() async throws {
        let system = try useSystemBus()
        let bluez = try await FakeBluez.start(on: system)
        defer { bluez.stop() }
        let proxy = try await MPRISProxy.start(session: bus, system: system, bluez: bluez)
        defer { proxy.stop() }
        try await startDaemon()
        let mpv = try await startMPV()
        _ = try await bluez.waitForRegisteredPlayer { $0.path.hasSuffix(Self.element(mpv.uniqueName)) }
        await waitForDaemonLog("mpris-proxy (pid \(proxy.pid))", "systemctl --user mask --now mpris-proxy.service")
    }

    // MARK: Helpers

    static func element(_ owner: String) -> String {
        "/" + String(owner.map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }

    /// Presses a button on the daemon's registered player: on each of its system-bus connections
    /// (it has one for the screen lock too, which ignores the call).
    /// Issue 24: anyone on the system bus may call the headset object. A stranger is refused
    /// before its arguments are looked at (a bad LoopStatus is AccessDenied, not InvalidArgs),
    /// and a stranger calling in a loop gets a few log lines, not one per call.
    func testAStrangerIsRefusedFirstAndLoggedAtABoundedRate() async throws {
        let system = try useSystemBus()
        let bluez = try await FakeBluez.start(on: system)
        defer { bluez.stop() }
        try await startDaemon()
        let mpv = try await startMPV()
        let registered = try await bluez.waitForRegisteredPlayer { $0.path.hasSuffix(Self.element(mpv.uniqueName)) }
        let daemonPID = try XCTUnwrap(daemon).pid
        let names = try await system.connections(ofProcess: daemonPID)
        let daemonName = try XCTUnwrap(names.first)
        let stranger = try Connection(address: system.address)
        defer { stranger.close() }
        let path = try ObjectPath(registered.path)
        do {
            _ = try await stranger.call(destination: daemonName, path: path, interface: "org.freedesktop.DBus.Properties",
                                        member: "Set", [.string("org.mpris.MediaPlayer2.Player"), .string("LoopStatus"),
                                                        .variant(.string("bogus"))], timeout: .seconds(5))
            XCTFail("a stranger's Set was taken")
        } catch {
            XCTAssertEqual(error.name, "org.freedesktop.DBus.Error.AccessDenied", error.message)
        }
        for _ in 0..<200 {
            do {
                _ = try await stranger.call(destination: daemonName, path: path, interface: "org.mpris.MediaPlayer2.Player",
                                            member: "Play", timeout: .seconds(5))
                XCTFail("a stranger's Play was taken")
            } catch {
                XCTAssertEqual(error.name, "org.freedesktop.DBus.Error.AccessDenied", error.message)
            }
        }
        try await assertStays(mpv, "Playing")
        let refusals = (daemon?.stderr ?? "").split(separator: "\n").filter { $0.contains("refused: only bluetoothd") }
        XCTAssertEqual(refusals.count, 5, "five lines a minute, not one per call: \(refusals.count)")
        XCTAssertTrue(refusals.first?.contains("Set LoopStatus from") ?? false, "\(refusals)")
    }

    private func press(_ member: String, _ path: String, bluez: FakeBluez, system: TestBus) async throws {
        let daemon = try XCTUnwrap(self.daemon)
        let names = try await system.connections(ofProcess: daemon.pid)
        XCTAssertFalse(names.isEmpty, "the daemon is on the system bus")
        for name in names { try await bluez.press(member, player: path, of: name) }
    }
}
