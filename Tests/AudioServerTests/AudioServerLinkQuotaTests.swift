import AudioServer
import Foundation
import TestSupport
import XCTest

/// What one client can make the link keep (issue 24): at most 64 of its streams are followed,
/// the client is named once in the log, another client's streams are followed as before, and a
/// property list's oversized or surplus properties are left out. Real servers, one real libpulse
/// client opening 70 streams on one connection.
final class AudioServerLinkQuotaTests: BusTestCase {
    static let quota = 64
    static let opened = 70
    /// Past `ProplistBounds.valueBytes` (2,048): left out of the stream's properties.
    static let longValue = String(repeating: "x", count: 3000)
    /// More than `ProplistBounds.properties` (128) of its own: some are left out.
    static let manyProperties = 140

    func testOneClientsStreamsPastTheQuotaAreNotFollowedPulseAudio() async throws { try await quota(.pulseAudio) }
    func testOneClientsStreamsPastTheQuotaAreNotFollowedPipeWire() async throws { try await quota(.pipeWire) }

    private func quota(_ kind: AudioServerKind) async throws {
        let server = try await startServer(kind, bus: bus)
        defer { server.stop() }
        let recorder = try LinkRecorder(socket: server.pulseSocketPath)
        defer { recorder.stop() }
        await recorder.waitFor("connected") { $0.server != nil }

        let properties = ["application.name": "Greedy", "bench.long": Self.longValue, "bench.short": "kept"]
        let greedy = try MultiStreamPlayer.start(count: Self.opened, prefix: "greedy", properties: properties,
                                                 environment: server.environment)
        defer { greedy.stop() }
        // Every stream is on the server (pactl's view, its clients' streams), and the link follows 64 of them.
        let onServer = await eventually(timeout: .seconds(60)) {
            let listed = try? await Pactl.run(["list", "short", "sink-inputs"], environment: server.environment, timeout: .seconds(30))
            // The test server's own loopback is a sink input of no client.
            return listed?.split(separator: "\n").filter { !$0.contains("module-loopback") }.count == Self.opened
        }
        let listed = try? await Pactl.run(["list", "short", "sink-inputs"], environment: server.environment, timeout: .seconds(30))
        XCTAssertTrue(onServer, "the server never had \(Self.opened) streams: \(listed ?? "-") \(greedy.standardError) \(server.log.suffix(2000))")
        await recorder.waitFor("\(Self.quota) of Greedy's streams followed", timeout: .seconds(60)) {
            $0.streams(named: "Greedy").count == Self.quota
        }
        // A second client's streams are followed whatever the first one has; once they are in
        // the inventory, every event of the first client's streams has been taken too.
        let modest = try MultiStreamPlayer.start(count: 3, prefix: "modest", properties: ["application.name": "Modest"],
                                                 environment: server.environment)
        defer { modest.stop() }
        await recorder.waitFor("Modest's 3 streams followed", timeout: .seconds(60)) { $0.streams(named: "Modest").count == 3 }
        let followed = recorder.link.inventory.streams(named: "Greedy")
        XCTAssertEqual(followed.count, Self.quota, "no more than the quota, even after every stream is on the server")
        let quotaLines = recorder.logLines.filter { $0.contains("Greedy (client #") && $0.contains("\(Self.quota) streams followed") }
        XCTAssertEqual(quotaLines.count, 1, "the client is named once: \(recorder.logLines)")
        XCTAssertFalse(recorder.logLines.contains { $0.contains("Modest") }, "\(recorder.logLines)")

        // The bounds of a property list: the short property is there, the long one is not.
        for stream in followed {
            XCTAssertEqual(stream.properties["bench.short"], "kept")
            XCTAssertNil(stream.properties["bench.long"], "a 3,000-byte value is left out")
        }
        // And a stream (and client) of 140 properties of its own keeps 128 of each list.
        var many = ["application.name": "Many"]
        for index in 0..<Self.manyProperties { many[String(format: "bench.p%03d", index)] = "v" }
        let crowded = try MultiStreamPlayer.start(count: 1, prefix: "crowded", properties: many, environment: server.environment)
        defer { crowded.stop() }
        await recorder.waitFor("the stream of 140 properties") { inventory in
            inventory.streams.values.contains { $0.properties["media.name"] == "crowded-0" }
        }
        let crowdedStream = recorder.link.inventory.streams.values.first { $0.properties["media.name"] == "crowded-0" }
        let numbered = crowdedStream?.properties.keys.filter { $0.hasPrefix("bench.p") }.count ?? 0
        XCTAssertGreaterThan(numbered, 100, "most are kept")
        XCTAssertLessThan(numbered, Self.manyProperties, "not all: each list keeps 128")

        // The client goes: all of its streams leave the inventory (the untracked ones with no
        // trace), and a new client of the same app is followed in full.
        greedy.stop()
        await recorder.waitFor("Greedy's streams gone", timeout: .seconds(60)) { $0.streams(named: "Greedy").isEmpty }
        let again = try MultiStreamPlayer.start(count: 5, prefix: "again", properties: ["application.name": "Greedy"],
                                                environment: server.environment)
        defer { again.stop() }
        await recorder.waitFor("a new client's 5 streams followed", timeout: .seconds(60)) { $0.streams(named: "Greedy").count == 5 }
    }
}
