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

    /// WirePlumber's role-based policy configured (its role loopbacks): a navigation prompt makes
    /// WirePlumber lower the Multimedia loopback, and the daemon, which would duck the music for
    /// the prompt too, leaves it alone — what the listener hears drops once (−10 dB), not twice
    /// (about −42 dB).
    func testUnderWirePlumbersRoleBasedDuckTheDaemonDoesNotDuckASecondTime() async throws {
        let server = try await PipeWireServer(busAddress: bus.address, timeout: .seconds(30), root: try await chroot(),
                                              wirePlumberFragments: WirePlumberFragments.roleLoopbacks)
        self.server = server
        try await startDaemon(environment: server.variables)
        await waitForDaemonLog("connected to the audio server", timeout: .seconds(15))
        // The role no loopback intends (the loopbacks' own): WirePlumber would otherwise give the
        // recording the default role and record the Multimedia loopback, ahead of its duck.
        let capture = try CaptureStream(on: server, role: "Loopback")
        defer { capture.stop() }
        let music = try PlayingStream(on: server, role: "Music", applicationName: "music-app")
        try await waitForStatus("the music plays into WirePlumber's Multimedia loopback", timeout: .seconds(10)) {
            $0.stream(of: "music-app")?.device == "input.loopback.sink.role.multimedia"
        }
        let loud = try await capture.waitForLoudness { $0.isClose(to: music.expectedRMS, within: 0.1) }

        // A prompt too quiet to hear itself: the monitor carries the music alone.
        let prompt = try PlayingStream(on: server, role: "Navigation", applicationName: "navigator", amplitude: 0.0001)
        let status = try await waitForStatus("the daemon says WirePlumber ducks the music", timeout: .seconds(10)) {
            $0.stream(of: "music-app")?.action == "ducked by WirePlumber (role-based policy)"
        }
        XCTAssertEqual(status.stream(of: "navigator")?.device, "input.loopback.sink.role.navigation", "\(status)")
        XCTAssertEqual(status.app("navigator")?.appClass, "prompt", "the daemon takes it for a prompt: \(status)")
        await waitForDaemonLog("WirePlumber's role-based policy ducks it; not ducked a second time")
        // WirePlumber's one duck (its duck-level, 0.3 of the amplitude) and no second one of ours.
        _ = try await capture.waitForLoudness { $0.isClose(to: loud * 0.3, within: 0.2) }
        let held = try await capture.measure(.milliseconds(500))
        XCTAssertEqual(held, loud * 0.3, accuracy: loud * 0.06, "one duck, held for the prompt")
        let now = try await waitForStatus("the music's stream") { $0.stream(of: "music-app") != nil }
        XCTAssertEqual(now.stream(of: "music-app")?.volume ?? 0, 1.0, accuracy: 0.001, "its stream keeps the user's volume")

        prompt.stop()
        _ = try await capture.waitForLoudness { $0.isClose(to: loud, within: 0.1) }
        try await waitForStatus("the prompt over, nothing is ducked", timeout: .seconds(10)) {
            $0.stream(of: "music-app")?.action == nil
        }
    }

    // MARK: Helpers

    private func chroot() async throws -> String {
        do {
            return try await DebianChroot.trixieBackportsPipeWire()
        } catch let unavailable as DebianChroot.Unavailable {
            throw XCTSkip("no Debian 13 chroot: \(unavailable)")
        }
    }

    /// The first channel's raw volume of the sink input whose node is `nodeName`.
    private func loopbackVolume(_ nodeName: String, _ server: PipeWireServer) async throws -> Int {
        let inputs = try await Pactl.list("sink-inputs", environment: server.environment())
        for input in inputs {
            guard let properties = input["properties"] as? [String: Any], properties["node.name"] as? String == nodeName,
                  let volume = input["volume"] as? [String: Any] else { continue }
            if let first = volume.values.compactMap({ ($0 as? [String: Any])?["value"] as? Int }).min() { return first }
        }
        throw TestSupportError("no sink input \(nodeName) in \(inputs)")
    }

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
        // Room for a second Pause, which must not come.
        let once = await holds(for: .milliseconds(500)) { fake.calls.filter { $0 == "Pause" }.count == 1 }
        XCTAssertTrue(once, "\(fake.calls)\n\(daemon?.stderr ?? "")", file: file, line: line)
        let status = try await status(of: fake)
        XCTAssertEqual(status, "Paused", file: file, line: line)
    }
}
