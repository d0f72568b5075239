import Foundation
import TestSupport
import XCTest

/// Device loss the audio server does not report by itself, decided per stream (issue 23): a
/// Bluetooth speaker that BlueZ (dbusmock's bluetoothd) and the server both know, and the
/// headphones jack of the card the daemon reads (`--control`, the test sound card). The player
/// whose own stream plays there is paused, once; a player elsewhere is not.
final class DaemonPortLossTests: ArbiterTestCase {
    private static let address = "00:11:22:33:44:55"
    /// The name both servers give an A2DP sink of that address.
    private static let speakerSink = "bluez_output.00_11_22_33_44_55.1"

    func testABluetoothSpeakerGoingAwayPausesOnlyThePlayerOnItOnPulseAudio() async throws {
        try await bluetoothSpeaker(on: try await RouteTestServer.pulseAudio())
    }

    func testABluetoothSpeakerGoingAwayPausesOnlyThePlayerOnItOnPipeWire() async throws {
        try await bluetoothSpeaker(on: try await RouteTestServer.pipeWire(bus: bus))
    }

    private func bluetoothSpeaker(on server: RouteTestServer) async throws {
        defer { server.stop() }
        let system = try useSystemBus()
        let bluez = try await FakeBluez.start(on: system)
        defer { bluez.stop() }
        let control = try BluezMockControl(bus: system)
        let device = try await control.addDevice(address: Self.address, alias: "Speaker")
        try await control.setUUIDs([BluezMockControl.a2dpSink], device: device)
        try await startDaemon(environment: server.variables)

        // The speaker connects: BlueZ reports it, the server makes a Bluetooth sink of it (a null
        // sink with the properties of one), and it does not become the default.
        func connectSpeaker() async throws -> String {
            try await control.connect(address: Self.address)
            let module = try await Pactl.run(["load-module", "module-null-sink", "sink_name=\(Self.speakerSink)",
                                              "sink_properties=device.bus=bluetooth"],
                                             environment: server.environment).trimmingCharacters(in: .whitespacesAndNewlines)
            try await waitForStatus("BlueZ's speaker and the server's sink of it are outputs", timeout: .seconds(15)) {
                let available = $0.route.available.map(\.id)
                return available.contains(device) && available.contains("pulse-sink:\(Self.speakerSink)")
                    && $0.route.outputs.map(\.id) == ["pulse-sink:\(server.sinkName)"]
            }
            return module
        }
        func disconnectSpeaker(_ module: String) async throws {
            try await control.disconnect(address: Self.address)
            try await Pactl.run(["unload-module", module], environment: server.environment)
            await waitForDaemonLog("gone pulse-sink:\(Self.speakerSink)", timeout: .seconds(10))
        }

        // Nobody plays on it: its going pauses nobody.
        let onDefault = try await startMPV(output: ["--ao=pulse"], environment: server.variables)
        try await waitForStatus("the daemon hears mpv on the default sink", timeout: .seconds(15)) { status in
            status.players.first { $0.busName == onDefault.busName }?.audibleOn == [server.sinkName]
        }
        try await disconnectSpeaker(try await connectSpeaker())
        try await assertStays(onDefault, "Playing", for: .milliseconds(500))
        XCTAssertFalse(daemon?.stderr.contains("went away") ?? true, daemon?.stderr ?? "")

        // A player on it: paused when it goes, once (neither BlueZ's report nor the sink's
        // removal pauses it a second time).
        onDefault.kill()
        let module = try await connectSpeaker()
        let onSpeaker = try await startMPV(output: ["--ao=pulse", "--audio-device=pulse/\(Self.speakerSink)"],
                                           environment: server.variables)
        try await waitForStatus("the daemon hears mpv on the speaker", timeout: .seconds(15)) { status in
            status.players.first { $0.busName == onSpeaker.busName }?.audibleOn == [Self.speakerSink]
        }
        try await disconnectSpeaker(module)
        let paused = await onSpeaker.waitForStatus("Paused", timeout: .seconds(10))
        XCTAssertTrue(paused, "the speaker it played on went away: \(daemon?.stderr ?? "")")
        try await assertStays(onSpeaker, "Paused", for: .milliseconds(300))
        XCTAssertEqual(daemonLogCount("played on \(Self.speakerSink), which went away"), 1, daemon?.stderr ?? "")
    }

    /// The laptop's headphones are the active port of its analog sink; the daemon reads that
    /// card's jacks itself. Pulling them out pauses the player whose stream plays on that card's
    /// sink, not one on another sink.
    func testTheHeadphonesJackPausesOnlyThePlayerOnThatCardsSink() async throws {
        let (server, card) = try await laptopWithHeadphones()
        defer { server.stop() }
        let laptop = Self.laptopSink

        let elsewhere = try await startMPV(output: ["--ao=pulse"], environment: server.variables)
        try await waitForStatus("the daemon hears mpv on the default sink", timeout: .seconds(15)) { status in
            status.players.first { $0.busName == elsewhere.busName }?.audibleOn == [server.sinkName]
        }
        try card.setHeadphones(plugged: false)
        try await waitForStatus("the headphones are out") { !$0.route.available.map(\.type).contains("headphones") }
        try await assertStays(elsewhere, "Playing", for: .milliseconds(500))
        try card.setHeadphones(plugged: true)
        try await waitForStatus("the headphones are back") { $0.route.available.map(\.type).contains("headphones") }

        elsewhere.kill()
        let onCard = try await startMPV(output: ["--ao=pulse", "--audio-device=pulse/\(laptop)"], environment: server.variables)
        try await waitForStatus("the daemon hears mpv on the card's sink", timeout: .seconds(15)) { status in
            status.players.first { $0.busName == onCard.busName }?.audibleOn == [laptop]
        }
        try card.setHeadphones(plugged: false)
        let paused = await onCard.waitForStatus("Paused", timeout: .seconds(5))
        XCTAssertTrue(paused, "its headphones were pulled out: \(daemon?.stderr ?? "")")
        XCTAssertEqual(daemonLogCount("played on \(laptop), which went away (Headphone unplugged)"), 1, daemon?.stderr ?? "")
    }

    /// A player with no known stream (straight to ALSA, or its stream not seen yet) plays, as far
    /// as the daemon knows, where new streams go: the server's default sink. The jack of that
    /// sink's card is then its jack — and only then.
    func testTheHeadphonesJackPausesAPlayerWithNoStreamOnlyWhenTheDefaultSinkIsOnThatCard() async throws {
        let (server, card) = try await laptopWithHeadphones()
        defer { server.stop() }
        let laptop = Self.laptopSink
        let straight = try await startFake("straight", status: "Playing", options: [], environment: server.variables)
        try await waitForStatus("the player is a playing session with no stream") { status in
            status.players.first { $0.busName == straight.busName }.map { $0.status == "Playing" && $0.audibleOn == [] } ?? false
        }

        // The default sink is on another card: these headphones are not the player's.
        try card.setHeadphones(plugged: false)
        try await waitForStatus("the headphones are out") { !$0.route.available.map(\.type).contains("headphones") }
        try await assertNoCalls(straight, for: .milliseconds(600))
        try card.setHeadphones(plugged: true)
        try await waitForStatus("the headphones are back") { $0.route.available.map(\.type).contains("headphones") }

        // The user makes the laptop's sink the default (no pause), then pulls the headphones out.
        try await Pactl.run(["set-default-sink", laptop], environment: server.environment)
        try await waitForStatus("the laptop's sink is the route") { $0.route.outputs.map(\.id) == ["pulse-sink:\(laptop)"] }
        XCTAssertEqual(straight.calls, [], "a default-sink change never pauses")
        try card.setHeadphones(plugged: false)
        try await waitForCalls(straight, ["Pause"])
        XCTAssertEqual(daemonLogCount("straight has no known stream and plays on \(laptop), whose Headphone went away"), 1,
                       daemon?.stderr ?? "")
    }

    /// The sink of the laptop's analog card, on card 0 — the test sound card, whose jacks the daemon
    /// reads with `--control`.
    private static let laptopSink = "alsa_output.pci-0000_00_1f.3.analog-stereo"

    /// A headless PulseAudio with the laptop's sink beside its own default one, the test sound card
    /// with its headphones in, and the daemon reading that card; returns once the daemon sees the
    /// laptop's sink as an output and the server's own sink as the route.
    private func laptopWithHeadphones() async throws -> (RouteTestServer, FakeSoundCard) {
        let server = try await RouteTestServer.pulseAudio()
        do {
            let card = try FakeSoundCard(FakeSoundCard.State(headphones: true, volume: (60, 60)))
            try await Pactl.run(["load-module", "module-null-sink", "sink_name=\(Self.laptopSink)",
                                 "sink_properties=alsa.card=0"], environment: server.environment)
            try await startDaemon(["--control", FakeSoundCard.control],
                                  environment: server.variables.merging(["ALSA_CONFIG_PATH": card.configPath]) { _, new in new })
            try await waitForStatus("the card's sink is an output, the server's own the route", timeout: .seconds(15)) {
                $0.route.available.map(\.id).contains("pulse-sink:\(Self.laptopSink)")
                    && $0.route.outputs.map(\.id) == ["pulse-sink:\(server.sinkName)"]
            }
            return (server, card)
        } catch {
            server.stop()
            throw error
        }
    }

    /// `fake` gets no call for `duration`.
    private func assertNoCalls(_ fake: FakePlayer, for duration: Duration, file: StaticString = #filePath,
                               line: UInt = #line) async throws {
        let quiet = await holds(for: duration) { fake.calls.isEmpty }
        XCTAssertTrue(quiet, "\(fake.calls)\ndaemon: \(daemon?.stderr ?? "")", file: file, line: line)
    }

    private func daemonLogCount(_ fragment: String) -> Int {
        (daemon?.stderr ?? "").components(separatedBy: "\n").filter { $0.contains(fragment) }.count
    }
}
