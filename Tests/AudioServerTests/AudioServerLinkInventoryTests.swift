import AudioServer
import Foundation
import TestSupport
import XCTest

/// The inventory against real servers: streams with all their fields, monitor captures, devices
/// coming and going, the default sink.
final class AudioServerLinkInventoryTests: BusTestCase {
    func testPlaybackStreamWithAllFieldsPulseAudio() async throws { try await playbackStreamWithAllFields(.pulseaudio) }
    func testPlaybackStreamWithAllFieldsPipeWire() async throws { try await playbackStreamWithAllFields(.pipewire) }

    private func playbackStreamWithAllFields(_ kind: ServerKind) async throws {
        let server = try await TestAudioServer(kind, busAddress: bus.address)
        defer { server.stop() }
        let recorder = try LinkRecorder(socket: server.socketPath)
        defer { recorder.stop() }
        await recorder.waitFor("connected") { $0.server != nil }
        XCTAssertEqual(recorder.changes.first?.kind, .connected)
        XCTAssertNil(recorder.link.absenceReason)
        let inventory = recorder.link.inventory
        XCTAssertEqual(inventory.defaultSink, server.sinkName)
        XCTAssertNotNil(inventory.device(.sink, named: server.sinkName))
        XCTAssertEqual(inventory.device(.source, named: server.sinkName + ".monitor")?.isMonitor, true)

        let player = try server.play(["media.role": "music", "application.name": "Tuner"])
        defer { player.stop() }
        guard await recorder.waitFor("the Tuner stream, linked", { inventory in
                  inventory.streams(named: "Tuner").contains { inventory.device(of: $0) != nil } }),
              let stream = recorder.link.inventory.streams(named: "Tuner").first else { return }
        let now = recorder.link.inventory
        XCTAssertEqual(stream.id.direction, .playback)
        XCTAssertEqual(stream.role, "music")
        XCTAssertEqual(stream.binary, "pacat")  // paplay is a link to pacat
        XCTAssertEqual(stream.processID, childPID(of: player.pid), "\(stream.properties)")
        XCTAssertNotNil(stream.mediaName)
        XCTAssertEqual(now.device(of: stream)?.name, server.sinkName)
        XCTAssertEqual(stream.volume.channels.count, 2)
        XCTAssertFalse(stream.isMuted)
        XCTAssertFalse(now.isMonitorCapture(stream))
        XCTAssertGreaterThan(stream.volume.channels[0], 0)
        XCTAssertEqual(stream.properties["media.role"], "music")

        player.stop()
        await recorder.waitFor("the Tuner stream removed") { $0.streams(named: "Tuner").isEmpty }
        XCTAssertTrue(recorder.changes.contains { $0.kind == .updated && !$0.previous.streams(named: "Tuner").isEmpty
                && $0.current.streams(named: "Tuner").isEmpty })
    }

    func testMonitorCaptureIsNotAMicrophonePulseAudio() async throws { try await monitorCapture(.pulseaudio) }
    func testMonitorCaptureIsNotAMicrophonePipeWire() async throws { try await monitorCapture(.pipewire) }

    private func monitorCapture(_ kind: ServerKind) async throws {
        let server = try await TestAudioServer(kind, busAddress: bus.address)
        defer { server.stop() }
        let recorder = try LinkRecorder(socket: server.socketPath)
        defer { recorder.stop() }
        await recorder.waitFor("connected") { $0.server != nil }
        try await server.addSource(named: "desk-mic")
        await recorder.waitFor("the desk-mic source") { $0.device(.source, named: "desk-mic") != nil }
        XCTAssertEqual(recorder.link.inventory.device(.source, named: "desk-mic")?.isMonitor, false)

        let meter = try server.record(from: server.sinkName + ".monitor", ["application.name": "Meter"])
        defer { meter.stop() }
        let voice = try server.record(from: "desk-mic", ["application.name": "Voice"])
        defer { voice.stop() }
        // On PipeWire a stream is listed before it is linked (its device index is invalid at first).
        await recorder.waitFor("both captures, linked") { inventory in
            ["Meter", "Voice"].allSatisfy { name in inventory.streams(named: name).contains { inventory.device(of: $0) != nil } }
        }
        let inventory = recorder.link.inventory
        guard let meterStream = inventory.streams(named: "Meter").first,
              let voiceStream = inventory.streams(named: "Voice").first else { return }
        XCTAssertEqual(meterStream.id.direction, .capture)
        XCTAssertTrue(inventory.isMonitorCapture(meterStream), "\(inventory.device(of: meterStream).map(\.name) ?? "no device")")
        XCTAssertEqual(voiceStream.id.direction, .capture)
        XCTAssertEqual(inventory.device(of: voiceStream)?.name, "desk-mic")
        XCTAssertFalse(inventory.isMonitorCapture(voiceStream))
    }

    func testSinksComeAndGoPulseAudio() async throws { try await sinksComeAndGo(.pulseaudio) }
    func testSinksComeAndGoPipeWire() async throws { try await sinksComeAndGo(.pipewire) }

    private func sinksComeAndGo(_ kind: ServerKind) async throws {
        let server = try await TestAudioServer(kind, busAddress: bus.address)
        defer { server.stop() }
        let recorder = try LinkRecorder(socket: server.socketPath)
        defer { recorder.stop() }
        await recorder.waitFor("connected") { $0.server != nil }
        let module = try await server.pactl("load-module", "module-null-sink", "sink_name=usb-dac")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        await recorder.waitFor("usb-dac appears") { $0.device(.sink, named: "usb-dac") != nil }
        XCTAssertTrue(recorder.changes.contains { $0.kind == .updated && $0.previous.device(.sink, named: "usb-dac") == nil
                && $0.current.device(.sink, named: "usb-dac") != nil })
        try await server.pactl("unload-module", module)
        await recorder.waitFor("usb-dac goes") { $0.device(.sink, named: "usb-dac") == nil }
        XCTAssertNotNil(recorder.link.inventory.device(.sink, named: server.sinkName))
    }

    func testDefaultSinkChangeSeenPulseAudio() async throws { try await defaultSinkChange(.pulseaudio) }
    func testDefaultSinkChangeSeenPipeWire() async throws { try await defaultSinkChange(.pipewire) }

    private func defaultSinkChange(_ kind: ServerKind) async throws {
        let server = try await TestAudioServer(kind, busAddress: bus.address)
        defer { server.stop() }
        let recorder = try LinkRecorder(socket: server.socketPath)
        defer { recorder.stop() }
        await recorder.waitFor("connected") { $0.server != nil }
        try await server.pactl("load-module", "module-null-sink", "sink_name=hdmi")
        await recorder.waitFor("hdmi appears") { $0.device(.sink, named: "hdmi") != nil }
        try await server.pactl("set-default-sink", "hdmi")
        await recorder.waitFor("hdmi is the default") { $0.defaultSink == "hdmi" }
        XCTAssertTrue(recorder.changes.contains { $0.kind == .updated && $0.previous.defaultSink == server.sinkName
                && $0.current.defaultSink == "hdmi" })
    }
}
