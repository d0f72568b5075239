import AudioServer
@testable import AudioPolicyDaemon
import XCTest

/// Which streams WirePlumber 0.5's role-based policy ducks by itself — the daemon never ducks those
/// a second time — predicted from the role loopbacks' properties as pipewire-pulse shows them.
final class RoleBasedDuckingTests: XCTestCase {
    /// The properties of one of WirePlumber's role loopback sinks (its `media-role-nodes.conf`).
    private static func role(_ priority: Int, lower: String, same: String = "mix") -> [String: String] {
        ["policy.role-based.target": "true", "policy.role-based.priority": "\(priority)",
         "policy.role-based.action.lower-priority": lower, "policy.role-based.action.same-priority": same]
    }

    /// A server's sinks and the streams playing into them.
    private struct Scene {
        var servers = ServerInventories()
        var nextStream: UInt32 = 0

        mutating func addSink(_ name: String, properties: [String: String] = [:]) -> DeviceID {
            servers.addSink(name, properties: properties)
        }

        @discardableResult
        mutating func play(on sink: DeviceID) -> StreamID {
            nextStream += 1
            let id = StreamID(.playback, nextStream)
            servers.inventory.streams[id] = AudioStream(id: id, applicationName: "app \(nextStream)", deviceIndex: sink.index)
            return id
        }

        var ducked: Set<StreamID> { RoleBasedDucking.ducked(in: servers.inventory) }
    }

    func testTheConfiguredActionDecides() {
        let cases: [(name: String, music: [String: String], prompt: [String: String], ducked: Bool)] = [
            ("navigation ducks multimedia", Self.role(10, lower: "mix"), Self.role(30, lower: "duck"), true),
            ("a higher role that mixes ducks nothing", Self.role(10, lower: "mix"), Self.role(20, lower: "mix"), false),
            ("a higher role that corks does not duck", Self.role(10, lower: "mix"), Self.role(50, lower: "cork"), false),
            ("a lower role never ducks a higher one", Self.role(30, lower: "duck"), Self.role(10, lower: "duck"), false),
            ("the same priority follows same-priority", Self.role(10, lower: "mix"), Self.role(10, lower: "mix", same: "duck"), true),
            ("a sink that is no role target", [:], Self.role(30, lower: "duck"), false),
        ]
        for entry in cases {
            var scene = Scene()
            let multimedia = scene.addSink("input.loopback.sink.role.multimedia", properties: entry.music)
            let navigation = scene.addSink("input.loopback.sink.role.navigation", properties: entry.prompt)
            let music = scene.play(on: multimedia)
            scene.play(on: navigation)
            XCTAssertEqual(scene.ducked.contains(music), entry.ducked, entry.name)
        }
    }

    func testNothingIsDuckedByWirePlumberAloneOrWithoutRoleLoopbacks() {
        var scene = Scene()
        let navigation = scene.addSink("input.loopback.sink.role.navigation", properties: Self.role(30, lower: "duck"))
        let multimedia = scene.addSink("input.loopback.sink.role.multimedia", properties: Self.role(10, lower: "mix"))
        let music = scene.play(on: multimedia)
        XCTAssertEqual(scene.ducked, [], "no prompt plays: nothing ducked")
        let speakers = scene.addSink("speakers")
        scene.play(on: speakers)
        XCTAssertEqual(scene.ducked, [], "a stream on a plain sink ducks nobody")
        let prompt = scene.play(on: navigation)
        XCTAssertEqual(scene.ducked, [music], "the prompt itself is not ducked")
        scene.servers.inventory.streams[prompt] = nil
        XCTAssertEqual(scene.ducked, [], "the prompt over: the duck is over")
    }

    func testMalformedPropertiesMakeNoTarget() {
        var properties = Self.role(30, lower: "duck")
        properties["policy.role-based.priority"] = "high"
        let device = AudioDevice(id: DeviceID(.sink, 1), name: "odd", properties: properties)
        XCTAssertNil(RoleBasedDucking.Target(device))
        properties["policy.role-based.priority"] = "30"
        properties["policy.role-based.target"] = "false"
        XCTAssertNil(RoleBasedDucking.Target(AudioDevice(id: DeviceID(.sink, 1), name: "odd", properties: properties)))
    }
}
