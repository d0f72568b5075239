import DBus
import Foundation
import TestSupport
import XCTest

/// `mprisd setup` for a tiling window manager, and for BlueZ's mpris-proxy (issue 25): the
/// bindings go to a file of their own and the line that includes it is shown, never written;
/// a running or enabled mpris-proxy user unit is stopped and masked (a stand-in for the systemd
/// user manager: none runs in a test); setup again changes nothing; undo puts back each, exactly.
final class SetupTilingTests: DaemonTestCase {
    private func setup(_ arguments: String..., desktop: String = "sway") async throws -> ProgramResult {
        let result = try await mprisd(["setup"] + arguments, environment: ["XDG_CURRENT_DESKTOP": desktop])
        XCTAssertEqual(result.status, 0, "setup \(arguments): \(result.stderr)")
        return result
    }

    private var keysFile: String { userDirectories["XDG_CONFIG_HOME", default: ""] + "/mprisd/sway-keys.conf" }

    func testSwaysBindingsGoToAFileOfTheirOwnAndMPRISProxyIsMaskedUntilUndo() async throws {
        let manager = try await FakeUserManager.start(on: bus)
        defer { manager.stop() }
        try await manager.addUnits(["mpris-proxy.service": (file: "enabled", active: true)])
        let config = userDirectories["XDG_CONFIG_HOME", default: ""] + "/sway/config"
        try FileManager.default.createDirectory(atPath: userDirectories["XDG_CONFIG_HOME", default: ""] + "/sway", withIntermediateDirectories: true)
        try "bindsym $mod+Return exec foot\n".write(toFile: config, atomically: true, encoding: .utf8)

        var result = try await setup("--dry-run")
        XCTAssertTrue(result.stdout.contains("would change: mpris-proxy stopped"), result.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: keysFile), "a dry run writes nothing")
        var unit = try await manager.unit("mpris-proxy.service")
        XCTAssertEqual(unit.file, "enabled")
        XCTAssertEqual(unit.active, "active")

        result = try await setup()
        XCTAssertTrue(result.stdout.contains("include \(keysFile)"), result.stdout)
        let keys = try String(contentsOfFile: keysFile, encoding: .utf8)
        XCTAssertTrue(keys.contains("bindsym --locked --no-repeat XF86AudioPlay exec "), keys)
        XCTAssertTrue(keys.contains("mprisd-control play-pause --key"), keys)
        XCTAssertTrue(keys.contains("XF86AudioPrev exec ") && keys.contains("mprisd-control previous --key"), keys)
        let untouched = try String(contentsOfFile: config, encoding: .utf8)
        XCTAssertEqual(untouched, "bindsym $mod+Return exec foot\n", "the user's configuration is not edited")
        unit = try await manager.unit("mpris-proxy.service")
        XCTAssertEqual(unit.file, "masked")
        XCTAssertEqual(unit.active, "inactive")

        result = try await setup()
        XCTAssertTrue(result.stdout.contains("nothing to change"), result.stdout)

        result = try await setup("--undo")
        XCTAssertFalse(FileManager.default.fileExists(atPath: keysFile), result.stdout)
        unit = try await manager.unit("mpris-proxy.service")
        XCTAssertEqual(unit.file, "enabled", "unmasked: enabled again")
        XCTAssertEqual(unit.active, "active", "started again, as it ran before setup")
        let record = userDirectories["XDG_STATE_HOME", default: ""] + "/mprisd/setup.json"
        XCTAssertFalse(FileManager.default.fileExists(atPath: record), "nothing left to undo")
    }

    func testADisabledStoppedMPRISProxyIsLeftAloneAndAFileTheUserChangedIsKept() async throws {
        let manager = try await FakeUserManager.start(on: bus)
        defer { manager.stop() }
        try await manager.addUnits(["mpris-proxy.service": (file: "disabled", active: false)])
        var result = try await setup(desktop: "i3")
        XCTAssertFalse(result.stdout.contains("mpris-proxy"), result.stdout)
        let file = userDirectories["XDG_CONFIG_HOME", default: ""] + "/mprisd/i3-keys.conf"
        let keys = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertTrue(keys.contains("bindsym XF86AudioNext exec --no-startup-id "), keys)
        try (keys + "bindsym XF86AudioMute exec pactl set-sink-mute @DEFAULT_SINK@ toggle\n").write(toFile: file, atomically: true, encoding: .utf8)
        result = try await setup("--undo", desktop: "i3")
        XCTAssertTrue(result.stdout.contains("left as it is: \(file) was changed since setup"), result.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: file), "the user's edit is theirs")
        let unit = try await manager.unit("mpris-proxy.service")
        XCTAssertEqual(unit.file, "disabled")
    }

    func testNoDesktopKnownIsOneLineAndABadDesktopAUsageError() async throws {
        var result = try await mprisd(["setup"], environment: ["XDG_CURRENT_DESKTOP": "Unknown"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("no desktop known from XDG_CURRENT_DESKTOP; name one with --desktop"), result.stderr)
        result = try await mprisd(["setup", "--desktop", "cde"])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.stderr.contains("--desktop takes gnome, kde, xfce, sway, i3, hyprland, not 'cde'"), result.stderr)
        result = try await mprisd(["setup", "--undo"])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.stdout.contains("nothing to undo"), result.stdout)
    }

    func testWriteConfigAddsTheIncludeLineAndUndoTakesOutOnlyIt() async throws {
        let directory = userDirectories["XDG_CONFIG_HOME", default: ""] + "/sway"
        let config = directory + "/config"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try "set $mod Mod4\nbindsym $mod+Return exec foot".write(toFile: config, atomically: true, encoding: .utf8)
        var result = try await setup("--write-config")
        var text = try String(contentsOfFile: config, encoding: .utf8)
        XCTAssertEqual(text, "set $mod Mod4\nbindsym $mod+Return exec foot\n# mprisd setup: the media keys (mprisd setup --undo takes this out)\n"
                       + "include \(keysFile)\n")
        XCTAssertFalse(result.stdout.contains("add this line"), result.stdout)
        result = try await setup("--write-config")
        XCTAssertTrue(result.stdout.contains("nothing to change"), result.stdout)
        // The user edits their configuration after setup.
        try (text + "bindsym $mod+d exec wofi\n").write(toFile: config, atomically: true, encoding: .utf8)
        result = try await setup("--undo")
        text = try String(contentsOfFile: config, encoding: .utf8)
        XCTAssertEqual(text, "set $mod Mod4\nbindsym $mod+Return exec foot\nbindsym $mod+d exec wofi\n", "only setup's lines came out")

        try FileManager.default.removeItem(atPath: config)
        result = try await mprisd(["setup", "--write-config"], environment: ["XDG_CURRENT_DESKTOP": "sway"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("--write-config: \(config) does not exist"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: keysFile), "nothing changed")
    }
}
