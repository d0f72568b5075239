import Foundation
import TestSupport
import XCTest

/// The daemon beside WirePlumber ≥ 0.5.11, which pauses MPRIS players itself when their output
/// device goes away (`linking.pause-playback`, on by default): real PipeWire 1.6 + WirePlumber
/// 0.5.12 from trixie-backports (a cached Debian 13 chroot, `DebianChroot`), the daemon and a player
/// whose Pause toggles (tidal-hifi's did) on this system. One Pause per unplug, whoever sends it:
/// two would start the player again, on the speakers.
final class WirePlumberCoexistenceTests: ArbiterTestCase {
    private var server: PipeWireServer?

    override func tearDown() {
        super.tearDown()
        server?.stop()
        server = nil
    }

    func testWithWirePlumbersPauseOnTheDaemonLeavesItAndATogglingPlayerStaysPaused() async throws {
        let (fake, module) = try await startTogglingPlayerOnUSBDAC(wirePlumberSettings: [:],
                                                                     expecting: "those pauses are left to it")
        let status = try await busStatus()
        XCTAssertEqual(status.audioServer?.deviceLossPausedBy, "WirePlumber", "\(status)")

        try await Pactl.run(["unload-module", module], environment: server?.environment() ?? [:])
        try await waitForCalls(fake, ["Pause"])
        await waitForDaemonLog("played on usb-dac, which went away: WirePlumber pauses it", timeout: .seconds(10))
        try await assertOnePause(fake)
    }

    func testWithWirePlumbersPauseOffTheDaemonPausesOnce() async throws {
        let (fake, module) = try await startTogglingPlayerOnUSBDAC(wirePlumberSettings: ["linking.pause-playback": "false"],
                                                                     expecting: "linking.pause-playback off): mprisd does")
        let status = try await busStatus()
        XCTAssertEqual(status.audioServer?.deviceLossPausedBy, "mprisd", "\(status)")

        try await Pactl.run(["unload-module", module], environment: server?.environment() ?? [:])
        await waitForDaemonLog("played on usb-dac, which went away", timeout: .seconds(10))
        try await waitForCalls(fake, ["Pause"])
        try await assertOnePause(fake)
    }

    // MARK: Helpers

    /// PipeWire and WirePlumber of the chroot with a sink `usb-dac`, the daemon (once it has read
    /// WirePlumber's setting: `expecting` in its log), and a toggling fake player whose stream plays
    /// there; returns the player and the sink's module.
    private func startTogglingPlayerOnUSBDAC(wirePlumberSettings: [String: String],
                                             expecting: String) async throws -> (FakePlayer, String) {
        let root: String
        do {
            root = try await DebianChroot.trixieBackportsPipeWire()
        } catch let unavailable as DebianChroot.Unavailable {
            throw XCTSkip("no Debian 13 chroot: \(unavailable)")
        }
        let server = try await PipeWireServer(busAddress: bus.address, timeout: .seconds(30), root: root,
                                              wirePlumberSettings: wirePlumberSettings)
        self.server = server
        let info = try await Pactl.run(["info"], environment: server.environment())
        XCTAssertTrue(info.contains("PipeWire 1."), "the chroot's PipeWire: \(info)")
        let module = try await Pactl.run(["load-module", "module-null-sink", "sink_name=usb-dac"],
                                         environment: server.environment()).trimmingCharacters(in: .whitespacesAndNewlines)
        try await startDaemon(environment: server.variables)
        await waitForDaemonLog(expecting, timeout: .seconds(15))
        let tone = path("tone.wav")
        try WAVFile.writeCountingTone(seconds: 60, to: tone)
        var variables = server.variables
        variables["PULSE_SINK"] = "usb-dac"
        let fake = try await startFake("toggler", status: "Playing", options: ["toggling", "stream=\(tone)"],
                                       environment: variables)
        try await waitForStatus("the daemon hears the player on usb-dac", timeout: .seconds(15)) { status in
            status.players.first { $0.busName == fake.busName }?.audibleOn == ["usb-dac"]
        }
        return (fake, module)
    }

    /// The player got one Pause and stays paused (a second Pause would have toggled it back).
    private func assertOnePause(_ fake: FakePlayer, file: StaticString = #filePath, line: UInt = #line) async throws {
        try await Task.sleep(for: .milliseconds(500))  // room for a second Pause, which must not come
        XCTAssertEqual(fake.calls.filter { $0 == "Pause" }.count, 1, "\(fake.calls)\n\(daemon?.stderr ?? "")",
                       file: file, line: line)
        let status = try await status(of: fake)
        XCTAssertEqual(status, "Paused", file: file, line: line)
    }
}
