import DBus
import Foundation
import TestSupport
import XCTest

/// `mprisd setup` on KDE Plasma (issue 25), against the real kglobalaccel (KF5) on Xvfb with keys
/// pressed by xdotool: the Media Controller's Play key (registered as Plasma registers it) goes
/// to the Media Controller; after setup it runs mprisd-control and reaches the arbiter's player;
/// after undo the Media Controller has its keys again and nothing of setup is left.
final class SetupKDETests: ArbiterTestCase {
    private var desktop: KGlobalAccelDesktop?

    override func tearDown() {
        desktop?.stop()
        desktop = nil
        super.tearDown()
    }

    private var extra: [String: String] { ["XDG_RUNTIME_DIR": path("runtime"), "XDG_CURRENT_DESKTOP": "KDE"] }

    static let mediaPlay = 0x0100_0080, mediaNext = 0x0100_0083

    func testThePlayKeyRunsMprisdControlAfterSetupAndTheMediaControllerHasItBackAfterUndo() async throws {
        try XCTSkipUnless(KGlobalAccelDesktop.isAvailable, "kglobalaccel5, xdotool or Xvfb is not installed")
        try FileManager.default.createDirectory(atPath: path("runtime"), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let kde = try await KGlobalAccelDesktop.start(bus: bus, environment: environment(extra))
        desktop = kde
        try await kde.register(component: "mediacontrol", componentName: "Media Controller", action: "playpausemedia",
                               actionName: "Play/Pause media playback", keys: [Self.mediaPlay])
        try await kde.register(component: "mediacontrol", componentName: "Media Controller", action: "nextmedia",
                               actionName: "Media playback next", keys: [Self.mediaNext])
        try await startDaemon(environment: extra)
        let a = try await startFake("musicA", status: "Playing")
        try await waitForActive(a.busName)
        try await call(a, "Pause")
        try await waitForCalls(a, ["Pause"])

        var doctor = try await mprisd(["doctor"], environment: extra)
        XCTAssertTrue(doctor.stdout.contains("Plasma's Media Controller holds the media keys"), doctor.stdout)

        // The Media Controller's key: its component is told, nothing reaches A.
        let monitor = try BusMonitor(address: bus.address, rules: ["type='signal',member='globalShortcutPressed'", "type='method_call',member='KeyPress'"])
        defer { monitor.stop() }
        try await waitUntil("dbus-monitor listens") { monitor.isListening }
        func pressed(_ component: String) -> Int {
            monitor.entries.filter { $0.field("member") == "globalShortcutPressed" && $0.strings.first == component }.count
        }
        try await kde.press("XF86AudioPlay")
        try await waitUntil("the Media Controller got the key") { pressed("mediacontrol") == 1 }

        var result = try await mprisd(["setup"], environment: extra)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("changed: Plasma's Media Controller lets go of its Play/Pause key"), result.stdout)
        let released = try await kde.keys(component: "mediacontrol", action: "playpausemedia")
        XCTAssertEqual(released, [])
        let launcher = userDirectories["XDG_DATA_HOME", default: path("data")] + "/kglobalaccel/mprisd-play-pause.desktop"
        let contents = try String(contentsOfFile: launcher, encoding: .utf8)
        XCTAssertTrue(contents.contains("mprisd-control play-pause --key"), contents)
        let bound = try await kde.keys(component: "mprisd-play-pause.desktop", action: "_launch")
        XCTAssertEqual(bound, [Self.mediaPlay])

        try await kde.press("XF86AudioPlay")
        try await waitForCalls(a, ["Pause", "Play"])
        XCTAssertEqual(pressed("mediacontrol"), 1, "the Media Controller no longer gets the key")

        doctor = try await mprisd(["doctor"], environment: extra)
        XCTAssertTrue(doctor.stdout.contains("KDE Plasma's Play key runs mprisd-control (mprisd setup)"), doctor.stdout)
        result = try await mprisd(["setup"], environment: extra)
        XCTAssertTrue(result.stdout.contains("nothing to change"), result.stdout)

        result = try await mprisd(["setup", "--undo"], environment: extra)
        XCTAssertEqual(result.status, 0, result.stderr)
        let back = try await kde.keys(component: "mediacontrol", action: "playpausemedia")
        XCTAssertEqual(back, [Self.mediaPlay])
        let next = try await kde.keys(component: "mediacontrol", action: "nextmedia")
        XCTAssertEqual(next, [Self.mediaNext])
        let left = try await kde.actions(of: "mprisd-play-pause.desktop")
        XCTAssertEqual(left, [], "the launcher's shortcut is gone")
        XCTAssertFalse(FileManager.default.fileExists(atPath: launcher))
        try await kde.press("XF86AudioPlay")
        try await waitUntil("the Media Controller has the key again") { pressed("mediacontrol") == 2 }
        XCTAssertEqual(a.calls, ["Pause", "Play"])
    }
}
