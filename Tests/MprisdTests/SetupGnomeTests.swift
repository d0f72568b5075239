import DBus
import Foundation
import TestSupport
import XCTest

/// `mprisd setup` on GNOME (issue 25), against the real gnome-settings-daemon 43 `gsd-media-keys`
/// on Xvfb, the real dconf-service, and a stand-in for GNOME Shell's key grabber: GNOME's own
/// Play key goes to the player GNOME picks (the one that appeared last); after setup the same
/// key goes to the arbiter's; a held key acts once; undo gives GNOME its keys back and leaves
/// dconf exactly as it was, the user's own shortcuts included.
final class SetupGnomeTests: ArbiterTestCase {
    private var dconf: DconfService?
    private var desktop: GnomeMediaKeysDesktop?

    override func tearDown() {
        desktop?.stop()
        desktop = nil
        dconf?.stop()
        dconf = nil
        super.tearDown()
    }

    private var extra: [String: String] {
        ["XDG_RUNTIME_DIR": path("runtime"), "XDG_CURRENT_DESKTOP": "ubuntu:GNOME", "GSETTINGS_BACKEND": "dconf"]
    }

    @discardableResult
    private func startGnome(keys: Bool = true) async throws -> GnomeMediaKeysDesktop? {
        try XCTSkipUnless(DconfService.isAvailable && GnomeMediaKeysDesktop.isAvailable,
                          "dconf-service, gsettings, gsd-media-keys or Xvfb is not installed")
        try FileManager.default.createDirectory(atPath: path("runtime"), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let dconf = try await DconfService.start(bus: bus, environment: environment(extra))
        self.dconf = dconf
        // The user's own: a custom shortcut, and a second key of their own for Next.
        let custom = "/org/gnome/settings-daemon/plugins/media-keys/custom-keybindings/custom0/"
        try await dconf.dconf("write", "/org/gnome/settings-daemon/plugins/media-keys/custom-keybindings", "['\(custom)']")
        try await dconf.dconf("write", custom + "name", "'Terminal'")
        try await dconf.dconf("write", custom + "command", "'true'")
        try await dconf.dconf("write", custom + "binding", "'<Super>t'")
        try await dconf.dconf("write", "/org/gnome/settings-daemon/plugins/media-keys/next", "['<Super>n']")
        guard keys else { return nil }
        let desktop = try await GnomeMediaKeysDesktop.start(bus: bus, environment: environment(extra),
                                                            grabber: Repository.path("Tests/Fixtures/GnomeShell/key_grabber.py"))
        self.desktop = desktop
        return desktop
    }

    private func setup(_ arguments: String...) async throws -> ProgramResult {
        let result = try await mprisd(["setup"] + arguments, environment: extra)
        XCTAssertEqual(result.status, 0, "setup \(arguments): \(result.stderr)")
        return result
    }

    /// Waits until gsd holds `accelerator` with (or without) GNOME's own no-repeat flag.
    private func waitForGrab(_ desktop: GnomeMediaKeysDesktop, _ accelerator: String, own: Bool) async throws {
        try await waitUntil("gsd holds \(accelerator) as \(own ? "GNOME's own binding" : "a custom shortcut")") {
            try await desktop.grabs().contains { $0.accelerator == accelerator && ($0.flags & 16 != 0) == own }
        }
    }

    /// A paused player A the user played, then a player B that appears and never plays: B is the
    /// one GNOME's controller switches to ("it just appeared"); A is the arbiter's choice.
    private func playersAAndB() async throws -> (a: FakePlayer, b: FakePlayer) {
        let a = try await startFake("musicA", status: "Playing")
        try await waitForActive(a.busName)
        try await call(a, "Pause")
        try await waitForListing("A paused by the user, still active") { $0.active?.busName == a.busName && $0.active?.status == "Paused" }
        let b = try await startFakeSeenByGnome("newB")
        return (a, b)
    }

    private func pressed(_ desktop: GnomeMediaKeysDesktop, file: StaticString = #filePath, line: UInt = #line) async throws {
        let taken = try await desktop.press("XF86AudioPlay")
        XCTAssertTrue(taken, "a grab took the Play key", file: file, line: line)
    }

    /// Everything a dconf database sets.
    private func dump() async throws -> String {
        let dconf = try XCTUnwrap(self.dconf)
        return try await dconf.dconf("dump", "/")
    }

    /// A player that appears and never plays, once gsd has its properties: gsd reads a new
    /// player's properties before it switches to it, so the test waits for that answer.
    private func startFakeSeenByGnome(_ name: String) async throws -> FakePlayer {
        let monitor = try BusMonitor(address: bus.address, rules: ["type='method_return'"])
        defer { monitor.stop() }
        try await waitUntil("dbus-monitor listens") { monitor.isListening }
        let gsdOwner = try await owner(of: "org.gnome.SettingsDaemon.MediaKeys")
        let gsd = try XCTUnwrap(gsdOwner)
        let fake = try await startFake(name, status: "Stopped")
        let fakeOwner = try await owner(of: fake.busName)
        let unique = try XCTUnwrap(fakeOwner)
        try await waitUntil("\(name) answered gsd's GetAll") {
            monitor.entries.contains { $0.field("sender") == unique && $0.field("destination") == gsd }
        }
        return fake
    }

    func testAfterSetupThePlayKeyReachesTheArbitersPlayerAndUndoGivesGnomeItsKeysBack() async throws {
        let started = try await startGnome()
        let desktop = try XCTUnwrap(started)
        try await startDaemon(environment: extra)
        let (a, b) = try await playersAAndB()
        let before = try await dump()
        var doctor = try await mprisd(["doctor"], environment: extra)
        XCTAssertTrue(doctor.stdout.contains("GNOME's own handler holds XF86AudioPlay, <Ctrl>XF86AudioPlay"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("fix: mprisd setup"), doctor.stdout)

        // GNOME's own binding: B, which never played, gets it.
        try await pressed(desktop)
        try await waitForCalls(b, ["PlayPause"])
        XCTAssertEqual(a.calls, ["Pause"], "GNOME's choice was B")
        try await call(b, "Stop")

        var result = try await setup("--dry-run")
        XCTAssertTrue(result.stdout.contains("would change: GNOME lets go of its Play/Pause key"), result.stdout)
        let afterDryRun = try await dump()
        XCTAssertEqual(afterDryRun, before, "a dry run changes nothing")

        result = try await setup()
        XCTAssertTrue(result.stdout.contains("undo with: mprisd setup --undo"), result.stdout)
        try await waitForGrab(desktop, "XF86AudioPlay", own: false)
        try await waitForGrab(desktop, "<Super>n", own: false)  // the user's own Next key kept
        let grabs = try await desktop.grabs()
        XCTAssertTrue(grabs.contains { $0.accelerator == "<Super>t" }, "the user's own shortcut is kept: \(grabs)")

        // The same key now reaches A, the arbiter's choice; B gets nothing more.
        try await pressed(desktop)
        try await waitForCalls(a, ["Pause", "Play"])
        XCTAssertEqual(b.calls, ["PlayPause", "Stop"])

        doctor = try await mprisd(["doctor"], environment: extra)
        XCTAssertTrue(doctor.stdout.contains("GNOME's media keys run mprisd-control (mprisd setup)"), doctor.stdout)

        // Setup again changes nothing.
        let set = try await dump()
        result = try await setup()
        XCTAssertTrue(result.stdout.contains("nothing to change"), result.stdout)
        let again = try await dump()
        XCTAssertEqual(again, set)

        // Undo: GNOME holds its keys again, and dconf is exactly as before.
        result = try await setup("--undo")
        let undone = try await dump()
        XCTAssertEqual(undone, before, "undo puts back exactly what was there")
        try await waitForGrab(desktop, "XF86AudioPlay", own: true)
        try await call(a, "Pause")
        try await waitForCalls(a, ["Pause", "Play", "Pause"])
        let c = try await startFakeSeenByGnome("newC")
        try await pressed(desktop)
        try await waitForCalls(c, ["PlayPause"])  // GNOME's choice again: the player that appeared last
        XCTAssertEqual(a.calls, ["Pause", "Play", "Pause"])
        result = try await setup("--undo")
        XCTAssertTrue(result.stdout.contains("nothing to undo"), result.stdout)
    }

    func testAHeldKeyActsOnceAndTheLockScreenIsTheStatedCost() async throws {
        let started = try await startGnome()
        let desktop = try XCTUnwrap(started)
        try await startDaemon(environment: extra)
        let (a, _) = try await playersAAndB()
        _ = try await setup()
        try await waitForGrab(desktop, "XF86AudioPlay", own: false)

        // Held for 20 auto-repeats: the shell runs the shortcut 21 times; A gets one Play.
        let monitor = try BusMonitor(address: bus.address, rules: ["type='method_call',member='KeyPress'"])
        defer { monitor.stop() }
        try await waitUntil("dbus-monitor listens") { monitor.isListening }
        let sent = try await desktop.hold("XF86AudioPlay", repeats: 20)
        XCTAssertEqual(sent, 21, "a custom shortcut repeats while held")
        try await waitUntil("the daemon got all 21 key presses", timeout: .seconds(30)) {
            monitor.entries.filter { $0.field("member") == "KeyPress" }.count == 21
        }
        try await waitForCalls(a, ["Pause", "Play"])
        let log = try XCTUnwrap(daemon).stderr
        XCTAssertEqual(log.components(separatedBy: "control: Play sent to").count - 1, 1, log)
        let status = try await status(of: a)
        XCTAssertEqual(status, "Playing")

        // On the lock screen a custom shortcut does not run (GNOME's own binding would).
        let taken = try await desktop.press("XF86AudioPlay", mode: GnomeMediaKeysDesktop.lockScreenMode)
        XCTAssertFalse(taken, "custom shortcuts are not grabbed for the lock screen: the cost the docs state")
        _ = try await setup("--undo")
        try await waitForGrab(desktop, "XF86AudioPlay", own: true)
        let lockedAfterUndo = try await desktop.press("XF86AudioPlay", mode: GnomeMediaKeysDesktop.lockScreenMode)
        XCTAssertTrue(lockedAfterUndo, "GNOME's own binding works on the lock screen")
    }

    func testUndoKeepsWhatTheUserChangedSinceAndSaysSo() async throws {
        try await startGnome(keys: false)
        let dconf = try XCTUnwrap(self.dconf)
        _ = try await setup()
        let list = "/org/gnome/settings-daemon/plugins/media-keys/custom-keybindings"
        // Since setup, the user added a shortcut of their own and bound Stop to a key of theirs.
        let mine = "/org/gnome/settings-daemon/plugins/media-keys/custom-keybindings/custom1/"
        let now = try await dconf.dconf("read", list).trimmingCharacters(in: .whitespacesAndNewlines)
        try await dconf.dconf("write", list, String(now.dropLast()) + ", '\(mine)']")
        try await dconf.dconf("write", "/org/gnome/settings-daemon/plugins/media-keys/stop", "['<Super>s']")

        let result = try await setup("--undo")
        XCTAssertTrue(result.stdout.contains("left as it is: /org/gnome/settings-daemon/plugins/media-keys/stop was changed since setup"),
                      result.stdout)
        let kept = try await dconf.dconf("read", list).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(kept, "['/org/gnome/settings-daemon/plugins/media-keys/custom-keybindings/custom0/', '\(mine)']",
                       "only what setup added came out")
        let stop = try await dconf.dconf("read", "/org/gnome/settings-daemon/plugins/media-keys/stop")
        XCTAssertEqual(stop, "['<Super>s']\n")
        let staticStop = try await dconf.dconf("read", "/org/gnome/settings-daemon/plugins/media-keys/stop-static")
        XCTAssertEqual(staticStop, "", "GNOME's built-in Stop key given back (unset: the default)")
    }
}
