import Foundation
import TestSupport
import XCTest

/// Routes and the microphone mute key from a real audio server, through the real daemon: a sink
/// unloaded under a playing mpv pauses it, a sink nobody plays on pauses nobody, a default-sink
/// change never pauses, the default source's mute interrupts a recording session and unmuting does
/// not reactivate it. Each test runs against PulseAudio 16 and against PipeWire + WirePlumber +
/// pipewire-pulse.
final class DaemonServerRouteTests: DaemonTestCase {
    // MARK: A sink going away

    func testASinkUnloadedUnderAPlayingPlayerPausesItOnPulseAudio() async throws {
        try await sinkUnloadedPausesThePlayer(on: try await RouteTestServer.pulseAudio())
    }

    func testASinkUnloadedUnderAPlayingPlayerPausesItOnPipeWire() async throws {
        try await sinkUnloadedPausesThePlayer(on: try await RouteTestServer.pipeWire(bus: bus))
    }

    private func sinkUnloadedPausesThePlayer(on server: RouteTestServer) async throws {
        defer { server.stop() }
        try await startDaemon(environment: server.variables)
        try await waitForStatus("the server's sink is an output", timeout: .seconds(15)) {
            $0.route.available.map(\.id).contains("pulse-sink:\(server.sinkName)")
        }
        let module = try await Pactl.run(["load-module", "module-null-sink", "sink_name=usb-dac"],
                                         environment: server.environment).trimmingCharacters(in: .whitespacesAndNewlines)
        try await waitForStatus("the USB DAC is an output; the route stays on the server's default") {
            $0.route.available.map(\.id).contains("pulse-sink:usb-dac")
                && $0.route.outputs.map(\.id) == ["pulse-sink:\(server.sinkName)"]
        }

        let mpv = try await startMPV(output: ["--ao=pulse", "--audio-device=pulse/usb-dac"], environment: server.variables)
        try await waitForStatus("the daemon hears mpv on usb-dac", timeout: .seconds(10)) { status in
            status.players.first { $0.busName == mpv.busName }?.audibleOn == ["usb-dac"]
        }
        try await Pactl.run(["unload-module", module], environment: server.environment)
        let paused = await mpv.waitForStatus("Paused", timeout: .seconds(10))
        XCTAssertTrue(paused, "the sink going away pauses mpv: \(daemon?.stderr ?? "")")
        try await waitForStatus("the server's own sink is the route") {
            $0.route.outputs.map(\.id) == ["pulse-sink:\(server.sinkName)"]
        }
        XCTAssertTrue(daemon?.stderr.contains("played on usb-dac, which went away") ?? false, daemon?.stderr ?? "")
    }

    /// A second sink appears without becoming the default (an HDMI monitor, a dock) and goes
    /// away again (the monitor sleeps): nobody played there, so nobody is paused, and the route
    /// never was that sink.
    func testASinkNobodyPlaysOnGoingAwayPausesNobodyOnPulseAudio() async throws {
        try await unusedSinkPausesNobody(on: try await RouteTestServer.pulseAudio())
    }

    func testASinkNobodyPlaysOnGoingAwayPausesNobodyOnPipeWire() async throws {
        try await unusedSinkPausesNobody(on: try await RouteTestServer.pipeWire(bus: bus))
    }

    private func unusedSinkPausesNobody(on server: RouteTestServer) async throws {
        defer { server.stop() }
        try await startDaemon(environment: server.variables)
        let mpv = try await startMPV(output: ["--ao=pulse"], environment: server.variables)
        try await waitForStatus("the daemon hears mpv on the default sink", timeout: .seconds(15)) { status in
            status.players.first { $0.busName == mpv.busName }?.audibleOn == [server.sinkName]
        }
        let module = try await Pactl.run(["load-module", "module-null-sink", "sink_name=hdmi"],
                                         environment: server.environment).trimmingCharacters(in: .whitespacesAndNewlines)
        try await waitForStatus("the HDMI sink is an output, not the route") {
            $0.route.available.map(\.id).contains("pulse-sink:hdmi")
                && $0.route.outputs.map(\.id) == ["pulse-sink:\(server.sinkName)"]
        }
        try await Pactl.run(["unload-module", module], environment: server.environment)
        await waitForDaemonLog("gone pulse-sink:hdmi", timeout: .seconds(10))
        try await assertStays(mpv, "Playing", for: .milliseconds(500))
        XCTAssertFalse(daemon?.stderr.contains("went away") ?? true, daemon?.stderr ?? "")
    }

    /// A player on a sink that is neither the default nor the newest (usb-dac older than the
    /// daemon, a dock plugged in since): that sink going away pauses it — its sound would
    /// otherwise come out of the speakers. On PulseAudio the user moves it there (`pactl
    /// move-sink-input`); pipewire-pulse's moves do not always take (audio-server notes), so on
    /// PipeWire mpv opens its stream there.
    func testAPlayerMovedToASinkIsPausedWhenThatSinkGoesOnPulseAudio() async throws {
        try await playerOnOlderSinkPaused(on: try await RouteTestServer.pulseAudio(), moved: true)
    }

    func testAPlayerOnASinkThatIsNeitherDefaultNorNewestIsPausedWhenItGoesOnPipeWire() async throws {
        try await playerOnOlderSinkPaused(on: try await RouteTestServer.pipeWire(bus: bus), moved: false)
    }

    private func playerOnOlderSinkPaused(on server: RouteTestServer, moved: Bool) async throws {
        defer { server.stop() }
        let module = try await Pactl.run(["load-module", "module-null-sink", "sink_name=usb-dac"],
                                         environment: server.environment).trimmingCharacters(in: .whitespacesAndNewlines)
        try await startDaemon(environment: server.variables)
        try await Pactl.run(["load-module", "module-null-sink", "sink_name=dock"], environment: server.environment)
        try await waitForStatus("both sinks are outputs", timeout: .seconds(15)) {
            Set($0.route.available.map(\.id)).isSuperset(of: ["pulse-sink:usb-dac", "pulse-sink:dock"])
        }
        let mpv = try await startMPV(output: ["--ao=pulse"] + (moved ? [] : ["--audio-device=pulse/usb-dac"]),
                                     environment: server.variables)
        if moved {
            try await waitForStatus("the daemon hears mpv on the default sink", timeout: .seconds(10)) { status in
                status.players.first { $0.busName == mpv.busName }?.audibleOn == [server.sinkName]
            }
            let input = try await server.playbackStream(ofProcess: mpv.process.pid)
            try await Pactl.run(["move-sink-input", String(input), "usb-dac"], environment: server.environment)
        }
        try await waitForStatus("the daemon hears mpv on usb-dac", timeout: .seconds(10)) { status in
            status.players.first { $0.busName == mpv.busName }?.audibleOn == ["usb-dac"]
        }
        try await Pactl.run(["unload-module", module], environment: server.environment)
        let paused = await mpv.waitForStatus("Paused", timeout: .seconds(10))
        XCTAssertTrue(paused, "the sink it played on went away: \(daemon?.stderr ?? "")")
    }

    // MARK: The default sink

    func testADefaultSinkChangeIsAPickThatNeverPausesOnPulseAudio() async throws {
        try await defaultSinkChangeNeverPauses(on: try await RouteTestServer.pulseAudio())
    }

    func testADefaultSinkChangeIsAPickThatNeverPausesOnPipeWire() async throws {
        try await defaultSinkChangeNeverPauses(on: try await RouteTestServer.pipeWire(bus: bus))
    }

    private func defaultSinkChangeNeverPauses(on server: RouteTestServer) async throws {
        defer { server.stop() }
        try await startDaemon(environment: server.variables)
        try await Pactl.run(["load-module", "module-null-sink", "sink_name=usb-dac"], environment: server.environment)
        try await waitForStatus("the USB DAC is an output", timeout: .seconds(15)) {
            $0.route.available.map(\.id).contains("pulse-sink:usb-dac")
        }
        let mpv = try await startMPV(output: ["--ao=pulse"], environment: server.variables)
        try await waitUntil("mpv plays through the server", timeout: .seconds(10)) {
            try await !server.playbackSinks(of: "mpv").isEmpty
        }

        for sink in ["usb-dac", server.sinkName, "usb-dac"] {
            try await Pactl.run(["set-default-sink", sink], environment: server.environment)
            try await waitForStatus("the pick follows the default sink \(sink)") {
                $0.route.override == "pulse-sink:\(sink)" && $0.route.outputs.map(\.id) == ["pulse-sink:\(sink)"]
            }
            try await assertStays(mpv, "Playing", for: .milliseconds(500))
        }
        XCTAssertFalse(daemon?.stderr.contains("went away") ?? true, daemon?.stderr ?? "")
    }

    // MARK: A server restart

    /// PipeWire killed and started again under the daemon: a player is not paused by the sinks
    /// that come back (the ports stay while the server is away), and the route is the server's
    /// default again. (A player on a sink that does not come back loses it at the reconnection:
    /// `StreamDeviceLossTests`, since a real player's stream dies with the server.)
    func testAServerRestartPausesNothingThatComesBack() async throws {
        let server = try await PipeWireServer(busAddress: bus.address)
        defer { server.stop() }
        try await startDaemon(environment: server.variables)
        let sink = "pulse-sink:\(PipeWireServer.sinkName)"
        try await waitForStatus("the null sink is the route", timeout: .seconds(15)) { $0.route.outputs.map(\.id) == [sink] }
        let mpv = try await startMPV()
        try await Pactl.run(["load-module", "module-null-sink", "sink_name=usb-dac"], environment: server.environment())
        try await waitForStatus("the USB DAC is an output") { $0.route.available.map(\.id).contains("pulse-sink:usb-dac") }

        try await restart(server, connections: 2)
        try await assertStays(mpv, "Playing", for: .milliseconds(500))
        try await waitForStatus("the null sink is the route again, the USB DAC gone") {
            $0.route.outputs.map(\.id) == [sink] && !$0.route.available.map(\.id).contains("pulse-sink:usb-dac")
        }
        XCTAssertFalse(daemon?.stderr.contains("went away") ?? true, daemon?.stderr ?? "")
    }

    /// Kills the server (as a crash would), starts it again and waits until the daemon has
    /// connected `connections` times in all.
    private func restart(_ server: PipeWireServer, connections: Int) async throws {
        server.kill()
        try await waitUntil("the daemon sees the server go", timeout: .seconds(10)) {
            self.daemonLogCount("audio server gone") >= connections - 1
        }
        try await server.start()
        try await waitUntil("the daemon connects again", timeout: .seconds(20)) {
            self.daemonLogCount("connected to the audio server") >= connections
        }
    }

    /// How many times the daemon has logged `fragment`.
    private func daemonLogCount(_ fragment: String) -> Int {
        (daemon?.stderr.components(separatedBy: fragment).count ?? 1) - 1
    }

    // MARK: The microphone mute key

    func testTheMicMuteKeyInterruptsRecordingAndUnmutingDoesNotResumeOnPulseAudio() async throws {
        try await micMuteKey(on: try await RouteTestServer.pulseAudio())
    }

    func testTheMicMuteKeyInterruptsRecordingAndUnmutingDoesNotResumeOnPipeWire() async throws {
        try await micMuteKey(on: try await RouteTestServer.pipeWire(bus: bus))
    }

    private func micMuteKey(on server: RouteTestServer) async throws {
        defer { server.stop() }
        try await Pactl.run(server.loadMicrophone("mic"), environment: server.environment)
        try await Pactl.run(["set-default-source", "mic"], environment: server.environment)
        try await startDaemon(environment: server.variables)
        await waitForDaemonLog("connected to the audio server", timeout: .seconds(15))

        let recorder = try run(["--category", "record", "--name", "recorder", "--verbose", "--", "sleep", "60"])
        try await waitForStatus("the recorder is active") { $0.sessions.contains { $0.name == "recorder" && $0.active } }
        try await Pactl.run(["set-source-mute", "mic", "1"], environment: server.environment)
        try await waitForStatus("the mute key interrupts the recorder") {
            $0.sessions.contains { $0.name == "recorder" && $0.interrupted && !$0.active }
        }
        try await waitUntil("the recorder hears why", timeout: .seconds(5)) { recorder.stderr.contains("builtInMicMuted") }

        try await Pactl.run(["set-source-mute", "mic", "0"], environment: server.environment)
        try await waitForStatus("unmuting ends the interruption") {
            $0.sessions.contains { $0.name == "recorder" && !$0.interrupted }
        }
        try await waitUntil("the recorder hears the end", timeout: .seconds(5)) { recorder.stderr.contains("ended") }
        // `mprisd run --verbose` prints the event as Swift does: `…ended(options: …InterruptionOptions(rawValue: 0))`.
        let ended = recorder.stderr.split(separator: "\n").filter { $0.contains("ended") }
        XCTAssertEqual(ended.count, 1, recorder.stderr)
        XCTAssertTrue(ended.allSatisfy { $0.contains("InterruptionOptions(rawValue: 0)") }, "G-INT-MIC: no shouldResume: \(ended)")
        let staysOff = try await holds(for: .milliseconds(300)) {
            try await !self.busStatus().sessions.contains { $0.name == "recorder" && $0.active }
        }
        XCTAssertTrue(staysOff, "the microphone never switches back on by itself")
    }
}

/// PulseAudio or PipeWire for one test, as the daemon and the test's clients reach it (a stand-in
/// until TestSupport's `TestAudioServer` of the server harness is merged here).
struct RouteTestServer {
    let variables: [String: String]
    let sinkName: String
    let isPipeWire: Bool
    let stop: @Sendable () -> Void

    static func pulseAudio() async throws -> RouteTestServer {
        let server = try await PulseServer()
        return RouteTestServer(variables: server.variables, sinkName: PulseServer.sinkName, isPipeWire: false,
                               stop: { server.stop() })
    }

    static func pipeWire(bus: TestBus) async throws -> RouteTestServer {
        let server = try await PipeWireServer(busAddress: bus.address)
        return RouteTestServer(variables: server.variables, sinkName: PipeWireServer.sinkName, isPipeWire: true,
                               stop: { server.stop() })
    }

    /// The test process's environment with the server's variables.
    var environment: [String: String] { ProcessInfo.processInfo.environment.merging(variables) { _, new in new } }

    /// `pactl` arguments that add a source that is no monitor (a microphone) named `name`:
    /// pipewire-pulse 0.3.65 has no module-null-source, its null sink makes a source by class.
    func loadMicrophone(_ name: String) -> [String] {
        isPipeWire ? ["load-module", "module-null-sink", "sink_name=\(name)", "media.class=Audio/Source/Virtual"]
            : ["load-module", "module-null-source", "source_name=\(name)"]
    }

    /// The index of the (first) playback stream of process `pid`.
    func playbackStream(ofProcess pid: Int32) async throws -> Int {
        for input in try await Pactl.list("sink-inputs", environment: environment) {
            guard let properties = input["properties"] as? [String: Any],
                  (properties["application.process.id"] as? String) == String(pid),
                  let index = input["index"] as? Int else { continue }
            return index
        }
        throw TestSupportError("no playback stream of process \(pid)")
    }

    /// The names of the sinks that the playback streams of `application` play on.
    func playbackSinks(of application: String) async throws -> [String] {
        let sinks = try await Pactl.list("sinks", environment: environment)
        var names: [Int: String] = [:]
        for sink in sinks {
            if let index = sink["index"] as? Int, let name = sink["name"] as? String { names[index] = name }
        }
        return try await Pactl.list("sink-inputs", environment: environment).compactMap { input in
            guard let properties = input["properties"] as? [String: Any],
                  (properties["application.name"] as? String)?.lowercased().contains(application) ?? false,
                  let sink = input["sink"] as? Int else { return nil }
            return names[sink]
        }
    }
}
