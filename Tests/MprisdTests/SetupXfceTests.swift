import Foundation
import TestSupport
import XCTest

/// `mprisd setup` on Xfce (issue 25), against the real xfconfd: the panel's PulseAudio plugin
/// lets go of the media keys, Xfce's keyboard shortcuts run mprisd-control, a binding the user
/// had for one of those keys is put back by undo, and both channels end exactly as they were.
final class SetupXfceTests: DaemonTestCase {
    private static let xfconfd = "/usr/lib/x86_64-linux-gnu/xfce4/xfconf/xfconfd"
    private var xfconfd: BackgroundProcess?

    override func tearDown() {
        xfconfd?.stop()
        xfconfd = nil
        super.tearDown()
    }

    private var extra: [String: String] { ["XDG_RUNTIME_DIR": path("runtime"), "XDG_CURRENT_DESKTOP": "XFCE"] }

    private func startXfconf() async throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: Self.xfconfd), "xfconf is not installed")
        try FileManager.default.createDirectory(atPath: path("runtime"), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        xfconfd = try BackgroundProcess(name: "xfconfd", Self.xfconfd, [], environment: environment(extra))
        try await waitUntil("xfconfd owns org.xfce.Xfconf") { (try? await self.owner(of: "org.xfce.Xfconf")) != nil }
    }

    @discardableResult
    private func query(_ channel: String, _ arguments: String...) async throws -> String {
        let result = try await runProgram("/usr/bin/xfconf-query", ["-c", channel] + arguments, environment: environment(extra))
        XCTAssertEqual(result.status, 0, "xfconf-query -c \(channel) \(arguments): \(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Both channels, every property with its value.
    private func dump() async throws -> String {
        let panel = try await query("xfce4-panel", "-l", "-v")
        let keys = try await query("xfce4-keyboard-shortcuts", "-l", "-v")
        return panel + "\n--\n" + keys
    }

    private func setup(_ arguments: String...) async throws -> ProgramResult {
        try await mprisd(["setup"] + arguments, environment: extra)
    }

    func testTheMediaKeysRunMprisdControlAndUndoPutsBackBothChannels() async throws {
        try await startXfconf()
        try await query("xfce4-panel", "-p", "/plugins/plugin-1", "-n", "-t", "string", "-s", "whiskermenu")
        try await query("xfce4-panel", "-p", "/plugins/plugin-5", "-n", "-t", "string", "-s", "pulseaudio")
        try await query("xfce4-panel", "-p", "/plugins/plugin-5/enable-keyboard-shortcuts", "-n", "-t", "bool", "-s", "true")
        try await query("xfce4-keyboard-shortcuts", "-p", "/commands/custom/override", "-n", "-t", "bool", "-s", "true")
        try await query("xfce4-keyboard-shortcuts", "-p", "/commands/custom/<Super>e", "-n", "-t", "string", "-s", "thunar")
        try await query("xfce4-keyboard-shortcuts", "-p", "/commands/custom/XF86AudioNext", "-n", "-t", "string", "-s", "playerctl next")
        let before = try await dump()
        var doctor = try await mprisd(["doctor"], environment: extra)
        XCTAssertTrue(doctor.stdout.contains("Xfce's own handlers (the panel's PulseAudio plugin) hold the media keys"), doctor.stdout)

        var result = try await setup("--dry-run")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("would change: the panel's PulseAudio plugin lets go of the media keys (/plugins/plugin-5)"),
                      result.stdout)
        let dry = try await dump()
        XCTAssertEqual(dry, before)

        result = try await setup()
        XCTAssertEqual(result.status, 0, result.stderr)
        let multimedia = try await query("xfce4-panel", "-p", "/plugins/plugin-5/enable-multimedia-keys")
        XCTAssertEqual(multimedia, "false")
        let volumeKeys = try await query("xfce4-panel", "-p", "/plugins/plugin-5/enable-keyboard-shortcuts")
        XCTAssertEqual(volumeKeys, "true", "the volume keys stay with the plugin")
        let play = try await query("xfce4-keyboard-shortcuts", "-p", "/commands/custom/XF86AudioPlay")
        XCTAssertTrue(play.hasSuffix("mprisd-control play-pause --key"), play)
        let next = try await query("xfce4-keyboard-shortcuts", "-p", "/commands/custom/XF86AudioNext")
        XCTAssertTrue(next.hasSuffix("mprisd-control next --key"), next)
        let mine = try await query("xfce4-keyboard-shortcuts", "-p", "/commands/custom/<Super>e")
        XCTAssertEqual(mine, "thunar")
        let set = try await dump()
        XCTAssertFalse(set.contains("plugin-1/enable-multimedia-keys"), "only the PulseAudio plugin")

        doctor = try await mprisd(["doctor"], environment: extra)
        XCTAssertTrue(doctor.stdout.contains("Xfce's Play key runs mprisd-control (mprisd setup)"), doctor.stdout)
        result = try await setup()
        XCTAssertTrue(result.stdout.contains("nothing to change"), result.stdout)

        result = try await setup("--undo")
        XCTAssertEqual(result.status, 0, result.stderr)
        let undone = try await dump()
        XCTAssertEqual(undone, before, "undo puts back exactly what was there")
    }

    func testWithoutTheUsersShortcutsSetupChangesNothingAndSaysWhy() async throws {
        try await startXfconf()
        try await query("xfce4-panel", "-p", "/plugins/plugin-5", "-n", "-t", "string", "-s", "pulseaudio")
        let before = try await dump()
        let result = try await setup()
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("Xfce's keyboard shortcuts are not set up yet"), result.stderr)
        let after = try await dump()
        XCTAssertEqual(after, before)
    }
}
