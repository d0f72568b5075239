import DBus
import Foundation
import TestSupport
import XCTest

/// Silent mode is GNOME's Do Not Disturb (issue 25), both ways: the real dconf-service on the
/// test's bus and the real `gsettings` flip `org.gnome.desktop.notifications show-banners` as the
/// desktop's own switch does; the daemon follows it (from the start, and by dconf's change
/// signals), and `mprisd silent` and `SetSilentMode` switch it. Elsewhere nothing of dconf is
/// touched.
final class DoNotDisturbTests: DaemonTestCase {
    private var dconf: DconfService?

    override func tearDown() {
        super.tearDown()
        dconf?.stop()
        dconf = nil
    }

    /// dconf-service with this test's directories and `desktop` as XDG_CURRENT_DESKTOP.
    private func startDconf(desktop: String) async throws -> [String: String] {
        try XCTSkipUnless(DconfService.isAvailable, "dconf-service and gsettings are not installed")
        let runtime = path("runtime")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let extra = ["XDG_RUNTIME_DIR": runtime, "XDG_CURRENT_DESKTOP": desktop, "GSETTINGS_BACKEND": "dconf"]
        dconf = try await DconfService.start(bus: bus, environment: environment(extra))
        return extra
    }

    private func banners() async throws -> String {
        try await XCTUnwrap(dconf).gsettings("get", "org.gnome.desktop.notifications", "show-banners")
    }

    private func setBanners(_ shown: Bool) async throws {
        try await XCTUnwrap(dconf).gsettings("set", "org.gnome.desktop.notifications", "show-banners", shown ? "true" : "false")
    }

    func testGnomesDoNotDisturbIsSilentModeBothWays() async throws {
        let extra = try await startDconf(desktop: "ubuntu:GNOME")
        try await setBanners(false)  // Do Not Disturb on before the daemon starts
        try await startDaemon(environment: extra)
        try await waitForStatus("silent mode from the desktop's switch at start") { $0.silentMode }
        await waitForDaemonLog("GNOME's Do Not Disturb is on: silent mode on")

        try await setBanners(true)
        try await waitForStatus("Do Not Disturb off: silent mode off") { !$0.silentMode }
        try await setBanners(false)
        try await waitForStatus("Do Not Disturb on again: silent mode on") { $0.silentMode }

        var result = try await mprisd(["silent", "off"], environment: extra)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "silent mode: off (GNOME's Do Not Disturb: off)\n")
        let shown = try await banners()
        XCTAssertEqual(shown, "true", "mprisd silent off turned Do Not Disturb off")
        try await waitForStatus("silent mode off") { !$0.silentMode }

        _ = try await observer().call(destination: Self.policyName, path: try ObjectPath(Self.policyPath),
                                      interface: Self.policyInterface, member: "SetSilentMode", [.boolean(true)])
        let hidden = try await banners()
        XCTAssertEqual(hidden, "false", "SetSilentMode(true) turned Do Not Disturb on")
        result = try await mprisd(["status"], environment: extra)
        XCTAssertTrue(result.stdout.contains("Silent mode") && result.stdout.split(separator: "\n").contains { $0.hasPrefix("Silent mode") && $0.hasSuffix("on") },
                      result.stdout)
    }

    func testXfcesDoNotDisturbIsSilentModeBothWays() async throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: Self.xfconfd), "xfconf is not installed")
        let runtime = path("runtime")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let extra = ["XDG_RUNTIME_DIR": runtime, "XDG_CURRENT_DESKTOP": "XFCE"]
        let xfconfd = try BackgroundProcess(name: "xfconfd", Self.xfconfd, [], environment: environment(extra))
        defer { xfconfd.stop() }
        try await waitUntil("xfconfd owns org.xfce.Xfconf") { (try? await self.owner(of: "org.xfce.Xfconf")) != nil }
        func query(_ arguments: String...) async throws -> ProgramResult {
            try await runProgram("/usr/bin/xfconf-query", ["-c", "xfce4-notifyd", "-p", "/do-not-disturb"] + arguments,
                                 environment: environment(extra))
        }
        var result = try await query("-n", "-t", "bool", "-s", "true")  // on before the daemon starts
        XCTAssertEqual(result.status, 0, result.stderr)
        try await startDaemon(environment: extra)
        try await waitForStatus("silent mode from Xfce's switch at start") { $0.silentMode }
        await waitForDaemonLog("Xfce's Do Not Disturb is on: silent mode on")
        result = try await query("-s", "false")
        XCTAssertEqual(result.status, 0, result.stderr)
        try await waitForStatus("Do Not Disturb off: silent mode off") { !$0.silentMode }

        result = try await mprisd(["silent", "on"], environment: extra)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "silent mode: on (Xfce's Do Not Disturb: on)\n")
        result = try await query()
        XCTAssertEqual(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "true", "mprisd silent on turned it on")
        try await waitForStatus("silent mode on") { $0.silentMode }
        _ = try await observer().call(destination: Self.policyName, path: try ObjectPath(Self.policyPath),
                                      interface: Self.policyInterface, member: "SetSilentMode", [.boolean(false)])
        try await waitUntil("SetSilentMode(false) turned Xfce's switch off") {
            try await query().stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "false"
        }
        result = try await query("-s", "true")
        XCTAssertEqual(result.status, 0, result.stderr)
        try await waitForStatus("on again") { $0.silentMode }
        result = try await query("-r")  // the property removed: off, as xfce4-notifyd reads it
        XCTAssertEqual(result.status, 0, result.stderr)
        try await waitForStatus("the property removed: off") { !$0.silentMode }
    }

    static let xfconfd = "/usr/lib/x86_64-linux-gnu/xfce4/xfconf/xfconfd"

    /// A daemon started by the user manager before the desktop told it `XDG_CURRENT_DESKTOP`
    /// knows the desktop when its shell takes its name on the bus.
    func testADaemonStartedBeforeTheDesktopFollowsItsSwitchOnceTheShellIsOnTheBus() async throws {
        var extra = try await startDconf(desktop: "ubuntu:GNOME")
        try await setBanners(false)  // Do Not Disturb on
        extra["XDG_CURRENT_DESKTOP"] = ""
        try await startDaemon(environment: extra)
        let before = try await busStatus()
        XCTAssertFalse(before.silentMode, "no desktop known yet")
        let shell = try connect()
        _ = try await shell.requestName("org.gnome.Shell")
        await waitForDaemonLog("org.gnome.Shell is on the bus: the desktop is GNOME")
        await waitForDaemonLog("silent mode follows GNOME's Do Not Disturb")
        try await waitForStatus("GNOME's Do Not Disturb followed from the shell's arrival") { $0.silentMode }
        try await setBanners(true)
        try await waitForStatus("and its changes") { !$0.silentMode }
    }

    func testElsewhereSilentModeIsTheDaemonsOwn() async throws {
        let extra = try await startDconf(desktop: "LXQt")
        try await setBanners(false)
        try await startDaemon(environment: extra)
        let status = try await busStatus()
        XCTAssertFalse(status.silentMode, "GNOME's switch means nothing on LXQt")
        let result = try await mprisd(["silent", "on"], environment: extra)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "silent mode: on\n")
        try await waitForStatus("silent mode on") { $0.silentMode }
        try await setBanners(true)
        let after = try await banners()
        XCTAssertEqual(after, "true")
        let still = try await busStatus()
        XCTAssertTrue(still.silentMode, "dconf's change is not followed off GNOME")
        XCTAssertFalse(daemon?.stderr.contains("Do Not Disturb") ?? true, daemon?.stderr ?? "")
    }

    /// KDE Plasma: a stand-in for its notification server (plasmashell cannot run here) with the
    /// `Inhibited` property and the inhibitions Plasma has.
    func testKDEPlasmasDoNotDisturbIsSilentModeBothWaysAndNeverOutlivesTheDaemon() async throws {
        let runtime = path("runtime")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let extra = ["XDG_RUNTIME_DIR": runtime, "XDG_CURRENT_DESKTOP": "KDE"]
        let server = try BackgroundProcess(name: "notification server", "/usr/bin/python3",
                                           [Repository.path("Tests/Fixtures/PlasmaNotifications/notification_server.py")],
                                           environment: environment(extra))
        defer { server.stop() }
        try await waitUntil("the stand-in owns org.freedesktop.Notifications") {
            (try? await self.owner(of: "org.freedesktop.Notifications")) != nil
        }
        func test(_ member: String, _ arguments: [DBusValue] = []) async throws -> [DBusValue] {
            try await observer().call(destination: "org.freedesktop.Notifications", path: try ObjectPath("/org/freedesktop/Notifications"),
                                      interface: "org.mprisd.Test.Notifications", member: member, arguments)
        }
        func inhibitors() async throws -> [String] {
            guard case .array(_, let names)? = try await test("Inhibitors").first else { return [] }
            return names.compactMap { if case .string(let name) = $0 { name } else { nil } }
        }
        _ = try await test("SetUserSwitch", [.boolean(true)])  // on before the daemon starts
        let program = try await startDaemon(environment: extra)
        try await waitForStatus("silent mode from Plasma's switch at start") { $0.silentMode }
        await waitForDaemonLog("silent mode follows KDE Plasma's Do Not Disturb")
        _ = try await test("SetUserSwitch", [.boolean(false)])
        try await waitForStatus("the user's switch off: silent mode off") { !$0.silentMode }

        var result = try await mprisd(["silent", "on"], environment: extra)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "silent mode: on (KDE Plasma's Do Not Disturb: on, held by the daemon)\n")
        let daemonName = try await policyOwner()
        try await waitUntil("the daemon holds an inhibition") { try await inhibitors() == [daemonName].compactMap { $0 } }
        result = try await mprisd(["silent", "off"], environment: extra)
        XCTAssertEqual(result.status, 0, result.stderr)
        try await waitUntil("the inhibition let go") { try await inhibitors().isEmpty }
        try await waitForStatus("silent mode off") { !$0.silentMode }

        // The user's switch off clears the daemon's inhibition too: silent mode follows it off.
        _ = try await observer().call(destination: Self.policyName, path: try ObjectPath(Self.policyPath),
                                      interface: Self.policyInterface, member: "SetSilentMode", [.boolean(true)])
        try await waitUntil("SetSilentMode(true) inhibits") { try await inhibitors().count == 1 }
        _ = try await test("SetUserSwitch", [.boolean(true)])
        _ = try await test("SetUserSwitch", [.boolean(false)])
        try await waitForStatus("Plasma's switch off: silent mode off") { !$0.silentMode }

        // Silent mode off while the user's switch is on: Do Not Disturb stays on, and so silent mode.
        _ = try await test("SetUserSwitch", [.boolean(true)])
        try await waitForStatus("on by the user's switch") { $0.silentMode }
        result = try await mprisd(["silent", "off"], environment: extra)
        XCTAssertEqual(result.status, 0, result.stderr)
        await waitForDaemonLog("KDE Plasma's Do Not Disturb stays on (the user's switch or another app holds it)")
        try await waitForStatus("silent mode back on, as the desktop is: \(daemon?.stderr ?? "")") { $0.silentMode }
        _ = try await test("SetUserSwitch", [.boolean(false)])
        try await waitForStatus("off") { !$0.silentMode }

        // Nothing outlives the daemon: its inhibition goes with it.
        result = try await mprisd(["silent", "on"], environment: extra)
        XCTAssertEqual(result.status, 0, result.stderr)
        try await waitUntil("inhibited") { try await inhibitors().count == 1 }
        program.kill()
        try await waitUntil("the daemon's inhibition dropped with it") { try await inhibitors().isEmpty }
    }
}
