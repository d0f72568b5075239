import DBus
import Foundation
import TestSupport
import XCTest

/// `mprisd play` against real peers beyond the session bus: a Bluetooth headset through BlueZ's
/// `mpris-proxy` (with a python3-dbusmock bluetoothd), and a real-time PulseAudio null sink.
final class PlayerDeviceTests: PlayerTestCase {
    func testHeadsetButtonsThroughMprisProxyActExactly() async throws {
        let system = try TestBus(.system)
        defer { system.stop() }
        let bluez = try await FakeBluez.start(on: system)
        defer { bluez.stop() }
        let proxy = try await MPRISProxy.start(session: bus, system: system, bluez: bluez)
        defer { proxy.stop() }
        let player = try play(["--device", "null", "--name", "headset", try track("a.wav", seconds: 30),
                               try track("b.wav", seconds: 30)])
        let registered = try await bluez.waitForRegisteredPlayer { $0.properties["PlaybackStatus"]?.string == "Playing" }
        for key in ["PlaybackStatus", "Metadata", "CanPlay", "CanPause", "CanGoNext", "CanGoPrevious", "CanControl",
                    "Position", "Shuffle", "LoopStatus"] {
            XCTAssertNotNil(registered.properties[key], "RegisterPlayer carries \(key): \(registered.properties.keys)")
        }
        XCTAssertEqual(registered.properties["CanPause"]?.bool, true)

        try await proxy.pressButton("Pause")
        try await waitUntil("paused by the headset") { try await self.playerctl("-p", "headset", "status") == "Paused" }
        try await proxy.pressButton("Pause")
        try await assertPlayer("headset", stays: "Paused", for: .milliseconds(200))  // a second PAUSE is not a toggle
        try await proxy.pressButton("Play")
        try await waitUntil("playing again") { try await self.playerctl("-p", "headset", "status") == "Playing" }
        try await proxy.pressButton("Next")
        try await waitUntil("next track") { try await self.playerctl("-p", "headset", "metadata", "title") == "b" }
        try await proxy.pressButton("Previous")
        try await waitUntil("previous track") { try await self.playerctl("-p", "headset", "metadata", "title") == "a" }
        try await proxy.pressButton("Stop")
        let status = await player.waitForExit()
        XCTAssertEqual(status, 0, player.stderr)
        try await bluez.waitForUnregisteredPlayer(registered.path)
    }

    func testPositionAdvancesAtRealTimeThroughPulseAudio() async throws {
        let pulse = try await PulseServer()
        defer { pulse.stop() }
        let file = try track("tone.wav", seconds: 6)
        let clock = ContinuousClock()
        let started = clock.now
        let player = try play(["--device", "pulse", "--name", "rt", file], environment: pulse.variables)
        try await waitUntil("playing") { try await self.playerctl("-p", "rt", "status") == "Playing" }
        try await Task.sleep(for: .milliseconds(1200))  // time is the subject here: past the first device-clock anchor
        // Each sample is bracketed by the clock before and after its playerctl (whose start-up
        // takes tens of milliseconds on a loaded machine): the position moved at real time if its
        // advance lies between the shortest and the longest interval the samples can span.
        let before1 = clock.now
        let p1 = Double(try await playerctl("-p", "rt", "position")) ?? -1
        let after1 = clock.now
        try await Task.sleep(for: .seconds(3))  // time is the subject here: the position moves at real time
        let before2 = clock.now
        let p2 = Double(try await playerctl("-p", "rt", "position")) ?? -1
        let after2 = clock.now
        let shortest = seconds(before2 - after1), longest = seconds(after2 - before1)
        let advanced = p2 - p1
        XCTAssertGreaterThanOrEqual(advanced, shortest * 0.98, "Position advanced \(advanced) s in \(shortest)…\(longest) s")
        XCTAssertLessThanOrEqual(advanced, longest * 1.02, "Position advanced \(advanced) s in \(shortest)…\(longest) s")
        let status = await player.waitForExit()
        XCTAssertEqual(status, 0, player.stderr + pulse.log)
        let total = clock.now - started
        XCTAssertGreaterThan(total, .milliseconds(5_900), "6 s of audio took \(total): the device paces playback")
    }

    private func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}
