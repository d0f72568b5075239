import DBus
import Foundation
import TestSupport
import XCTest

/// A Bluetooth headset that disconnects (or goes out of range, or powers off) pauses
/// `mprisd play`; one that connects never does (G-HEADPHONES-OUT/IN). BlueZ is python3-dbusmock's
/// bluez5 template on a private system bus.
final class PlayBluetoothTests: PlayerTestCase {
    func testHeadsetDisconnectPausesAndConnectDoesNot() async throws {
        let system = try TestBus(.system)
        defer { system.stop() }
        let bluez = try await FakeBluez.start(on: system)
        defer { bluez.stop() }
        let control = try BluezMockControl(bus: system)
        _ = try await control.addDevice(address: "11:22:33:44:55:66", alias: "Headset")
        try await control.setUUIDs([BluezMockControl.a2dpSink], device: "/org/bluez/hci0/dev_11_22_33_44_55_66")

        let player = try play(["--device", "null", "--name", "bt", try track("a.wav", seconds: 30)],
                              environment: ["DBUS_SYSTEM_BUS_ADDRESS": system.address])
        try await waitUntil("playing") { try await self.playerctl("-p", "bt", "status") == "Playing" }

        try await control.connect(address: "11:22:33:44:55:66")
        try await assertPlayer("bt", stays: "Playing")  // a headset connecting never pauses

        try await control.disconnect(address: "11:22:33:44:55:66")
        try await waitUntil("paused by the disconnect", timeout: .seconds(3)) {
            try await self.playerctl("-p", "bt", "status") == "Paused"
        }
        player.signal(SIGTERM)
        let status = await player.waitForExit()
        XCTAssertEqual(status, 0, player.stderr)
    }
}
