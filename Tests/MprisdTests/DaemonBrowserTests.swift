import Foundation
import TestSupport
import XCTest

/// Real browsers under the daemon, on both servers: Debian's Chromium and Firefox ESR, headless,
/// playing a page from 127.0.0.1. A browser playing on a sink that goes away is paused (its sound
/// would otherwise come out of the speakers); a sink it does not play on going away pauses it
/// not; a prompt over Firefox ducks its stream — the per-app volume the user set in the mixer —
/// and gives that exact value back, channel by channel, without touching its MPRIS `Volume`
/// (which Firefox would apply to the same stream, one value for all channels).
final class DaemonBrowserTests: StreamTestCase {
    private var page: PageServer?
    private var browsers: [BrowserPlayer] = []

    override func tearDown() {
        browsers.removeAll()
        page = nil
        super.tearDown()
    }

    // MARK: A sink going away

    func testChromiumPlayingOnASinkThatGoesAwayIsPausedOnPulseAudio() async throws {
        try await browserOnLostSinkPaused(.pulseAudio)
    }

    func testChromiumPlayingOnASinkThatGoesAwayIsPausedOnPipeWire() async throws {
        try await browserOnLostSinkPaused(.pipeWire)
    }

    private func browserOnLostSinkPaused(_ kind: AudioServerKind) async throws {
        let server = try await startPulse(kind)
        let module = try await server.pactl("load-module", "module-null-sink", "sink_name=usb-dac")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try await startStreamDaemon()
        let chromium = try await startBrowser(.chromium, sink: "usb-dac")
        try await waitForStatus("the daemon hears Chromium on usb-dac", timeout: .seconds(15)) { status in
            status.players.first { $0.busName == chromium.busName }?.audibleOn == ["usb-dac"]
        }
        try await server.pactl("unload-module", module)
        let paused = await chromium.waitForStatus("Paused", timeout: .seconds(10))
        XCTAssertTrue(paused, "the sink it played on went away: \(daemon?.stderr ?? "")")
    }

    func testASinkNoBrowserPlaysOnGoingAwayPausesNoneOnPulseAudio() async throws {
        try await unusedSinkPausesNoBrowser(.pulseAudio)
    }

    func testASinkNoBrowserPlaysOnGoingAwayPausesNoneOnPipeWire() async throws {
        try await unusedSinkPausesNoBrowser(.pipeWire)
    }

    private func unusedSinkPausesNoBrowser(_ kind: AudioServerKind) async throws {
        let server = try await startPulse(kind)
        try await startStreamDaemon()
        let chromium = try await startBrowser(.chromium)
        try await waitForStatus("the daemon hears Chromium on the default sink", timeout: .seconds(15)) { status in
            status.players.first { $0.busName == chromium.busName }?.audibleOn == [server.sinkName]
        }
        let module = try await server.pactl("load-module", "module-null-sink", "sink_name=hdmi")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try await waitForStatus("the HDMI sink is an output, not the route") {
            $0.route.available.map(\.id).contains("pulse-sink:hdmi") && $0.route.outputs.map(\.id) == ["pulse-sink:\(server.sinkName)"]
        }
        try await server.pactl("unload-module", module)
        await waitForDaemonLog("gone pulse-sink:hdmi", timeout: .seconds(10))
        try await waitForStatus("the daemon has seen the change") { !$0.route.available.map(\.id).contains("pulse-sink:hdmi") }
        let status = try await chromium.playbackStatus()
        XCTAssertEqual(status, "Playing", daemon?.stderr ?? "")
        XCTAssertFalse(daemon?.stderr.contains("went away") ?? true, daemon?.stderr ?? "")
    }

    // MARK: The user's per-app volume

    func testAPromptOverFirefoxGivesBackTheUsersMixerVolumeExactlyOnPulseAudio() async throws {
        try await promptKeepsFirefoxVolume(.pulseAudio)
    }

    func testAPromptOverFirefoxGivesBackTheUsersMixerVolumeExactlyOnPipeWire() async throws {
        try await promptKeepsFirefoxVolume(.pipeWire)
    }

    private func promptKeepsFirefoxVolume(_ kind: AudioServerKind) async throws {
        let server = try await startPulse(kind)
        try await startStreamDaemon()
        let firefox = try await startBrowser(.firefox)
        let stream = try await waitForSinkInput("Firefox's stream", timeout: .seconds(15)) { $0.app == "Firefox" }
        // The user's mixer: 83 % left, 79 % right (a balance MPRIS Volume cannot express).
        try await server.pactl("set-sink-input-volume", String(stream.index), "83%", "79%")
        let user = try await waitForStream(stream.index, on: server, "the user's volume") { Set($0.channelVolumes.values).count == 2 }
        // The join says where Firefox plays and how loud: the user's loudest channel.
        try await waitForStatus("the daemon hears Firefox at the user's volume", timeout: .seconds(10)) { status in
            guard let player = status.players.first(where: { $0.busName == firefox.busName }) else { return false }
            return player.audibleOn == [server.sinkName] && player.streams.map { streams in
                streams.map(\.index) == [stream.index] && abs(streams[0].volume - 0.83) < 0.005 && !streams[0].muted
            } ?? false
        }
        let volumeBefore = try await firefox.volume()

        let prompt = try run(["--category", "playback", "--mode", "voicePrompt", "--mix", "--duck", "--", "sleep", "60"])
        let expected = user.channelVolumes.mapValues { Int(Self.ducked(UInt32($0))) }
        try await waitForStream(stream.index, on: server, "Firefox ducked through its stream, channel by channel") {
            $0.channelVolumes == expected
        }
        let volumeDucked = try await firefox.volume()
        XCTAssertEqual(volumeDucked, volumeBefore, accuracy: 0.01, "its MPRIS Volume is not a second duck")
        let loudestDucked = Double(expected.values.max() ?? 0) / 0x10000
        try await waitForStatus("the status shows the duck on Firefox's stream", timeout: .seconds(10)) { status in
            status.players.first { $0.busName == firefox.busName }?.streams.map { streams in
                streams.count == 1 && abs(streams[0].volume - loudestDucked) < 0.005
            } ?? false
        }

        prompt.kill()
        let restored = try await waitForStream(stream.index, on: server, "the user's exact volume back") {
            $0.channelVolumes == user.channelVolumes
        }
        XCTAssertEqual(restored.channelVolumes, user.channelVolumes, daemon?.stderr ?? "")
        let status = try await firefox.playbackStatus()
        XCTAssertEqual(status, "Playing", "a prompt ducks, it does not pause")
    }

    /// Waits until sink input `index` satisfies `condition`; returns it.
    @discardableResult
    private func waitForStream(_ index: UInt32, on server: any TestAudioServer, _ what: String,
                               file: StaticString = #filePath, line: UInt = #line,
                               _ condition: @escaping (SinkInputInfo) -> Bool) async throws -> SinkInputInfo {
        var last: SinkInputInfo?
        let seen = await eventually(timeout: .seconds(10)) {
            last = try? await server.sinkInputs().first { $0.index == Int(index) }
            return last.map(condition) ?? false
        }
        guard seen, let last else {
            XCTFail("never: \(what); stream: \(String(describing: last))\ndaemon: \(daemon?.stderr ?? "")", file: file, line: line)
            throw TestSupportError("never: \(what)")
        }
        return last
    }

    // MARK: Helpers

    /// A browser playing the tone page through the test's server (on `sink`, else the default).
    private func startBrowser(_ kind: BrowserPlayer.Kind, sink: String? = nil) async throws -> BrowserPlayer {
        try XCTSkipUnless(BrowserPlayer.isAvailable(kind), "\(kind) is not installed")
        let page: PageServer
        if let known = self.page {
            page = known
        } else {
            page = try await PageServer.tone()
            self.page = page
        }
        var variables = serverVariables
        if let sink { variables["PULSE_SINK"] = sink }
        let browser = try await BrowserPlayer.start(kind, bus: bus, url: page.tonePage, environment: variables)
        browsers.append(browser)
        return browser
    }
}
