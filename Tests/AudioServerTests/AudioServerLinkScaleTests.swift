import AudioServer
import Foundation
import TestSupport
import XCTest

/// 200 real streams (4 processes of 50 streams each: PulseAudio takes at most 64 connections, so
/// 200 `paplay` processes cannot all play there): every one in the inventory, and gone again.
final class AudioServerLinkScaleTests: BusTestCase {
    static let streamCount = 200
    static let processes = 4

    func testTwoHundredStreamsPulseAudio() async throws { try await twoHundredStreams(.pulseaudio) }
    func testTwoHundredStreamsPipeWire() async throws { try await twoHundredStreams(.pipewire) }

    private func twoHundredStreams(_ kind: ServerKind) async throws {
        let server = try await TestAudioServer(kind, busAddress: bus.address)
        defer { server.stop() }
        let recorder = try LinkRecorder(socket: server.socketPath)
        defer { recorder.stop() }
        await recorder.waitFor("connected") { $0.server != nil }
        let began = ContinuousClock.now
        var players: [BackgroundProcess] = []
        defer { for player in players { player.stop() } }
        for index in 0..<Self.processes {
            players.append(try MultiStreamPlayer.start(count: Self.streamCount / Self.processes, prefix: "crowd\(index)",
                                                       properties: ["application.name": "Crowd"],
                                                       environment: server.clientEnvironment))
        }
        let all = await recorder.waitFor("\(Self.streamCount) streams", timeout: .seconds(120)) {
            $0.streams(named: "Crowd").count == Self.streamCount
        }
        let took = ContinuousClock.now - began
        print("\(kind): \(Self.streamCount) streams in the inventory after \(took); \(recorder.changes.count) changes reported")
        guard all else { return print(server.log.suffix(3000), players.map(\.standardError)) }
        let names = Set(recorder.link.inventory.streams(named: "Crowd").compactMap(\.mediaName))
        XCTAssertEqual(names.count, Self.streamCount)
        let listed = try await Pactl.run(["list", "short", "sink-inputs"], environment: server.clientEnvironment, timeout: .seconds(60))
        XCTAssertEqual(listed.split(separator: "\n").count, recorder.link.inventory.streams.values.filter { $0.id.direction == .playback }.count)

        for player in players { player.stop() }
        await recorder.waitFor("all gone", timeout: .seconds(120)) { $0.streams(named: "Crowd").isEmpty }
    }
}
