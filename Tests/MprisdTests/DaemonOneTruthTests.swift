import DBus
import Foundation
import TestSupport
import XCTest

/// One source of truth for what the daemon reports: sessions of clients and of foreign players
/// share one numbering (the log, `mprisd status`, its JSON), and the `OutputVolume` property and
/// the status document agree on the volume — also when it is unknown.
final class DaemonOneTruthTests: DaemonTestCase {
    private func outputVolumeProperty() async throws -> Double {
        let reply = try await observer().call(destination: Self.policyName, path: try ObjectPath(Self.policyPath),
                                              interface: "org.freedesktop.DBus.Properties", member: "Get",
                                              [.string(Self.policyInterface), .string("OutputVolume")])
        guard case .variant(.double(let volume))? = reply.first else { throw TestSupportError("OutputVolume: \(reply)") }
        return volume
    }

    func testClientsAndPlayersShareOneNumbering() async throws {
        try await startDaemon()
        let call = try run(["--category", "playAndRecord", "--mode", "voiceChat", "--name", "call", "--", "sleep", "30"])
        try await waitForStatus("the call is registered") { $0.session(named: "call") != nil }
        let mpv = try await startMPV(paused: true)
        let status = try await busStatus()
        let callNumber = try XCTUnwrap(status.session(named: "call")?.id)
        let playerNumber = try XCTUnwrap(status.player(mpv.busName)?.session)
        XCTAssertEqual(callNumber, 1)
        XCTAssertEqual(playerNumber, 2, "the next number of the same sequence, not the engine's id: \(status)")
        await waitForDaemonLog("tracking \(mpv.busName) (\(mpv.uniqueName)) as session 2")
        call.kill()
    }

    func testWithoutAMixerTheVolumeIsUnknownEverywhere() async throws {
        try await startDaemon()
        let status = try await busStatus()
        XCTAssertNil(status.outputVolume, "\(status)")
        let property = try await outputVolumeProperty()
        XCTAssertEqual(property, -1, "the property says unknown too")
        let text = try await mprisd(["status"])
        XCTAssertTrue(text.stdout.contains("unknown"), text.stdout)
    }

    func testWithAMixerBothSayTheSame() async throws {
        let card = try FakeSoundCard(FakeSoundCard.State(headphones: true, volume: (60, 60)))
        try await startDaemon(["--control", FakeSoundCard.control], environment: ["ALSA_CONFIG_PATH": card.configPath])
        try await waitForStatus("the mixer's volume is known") { $0.outputVolume != nil }
        let status = try await busStatus()
        let property = try await outputVolumeProperty()
        XCTAssertEqual(status.outputVolume, property)
        XCTAssertGreaterThan(property, 0)
    }
}
