import DBus
import Foundation
import TestSupport
import XCTest

/// The Bluetooth headset path with real programs: the real `mpris-proxy` between a private
/// session bus (the player) and a private system bus with python3-dbusmock's bluez5 template (the
/// fake bluetoothd). Self-test of `FakeBluez` and `MPRISProxy` with a minimal player exported by
/// the project's D-Bus binding; `mprisd play` is tested the same way.
final class BluetoothPathTests: XCTestCase {
    private static let name = "harnesstest"
    private static let busName = "org.mpris.MediaPlayer2." + name
    /// A player playing, with every property and a track's metadata, answering the controls faithfully.
    private static let harness = FakeMPRISPlayer.Options(status: "Playing", complete: true)

    func testRegisterPlayerButtonsAndUnregisterPlayer() async throws {
        let session = try TestBus(.session)
        defer { session.stop() }
        let system = try TestBus(.system)
        defer { system.stop() }
        let bluez = try await FakeBluez.start(on: system)
        defer { bluez.stop() }
        XCTAssertEqual(bluez.adapterPath, "/org/bluez/hci0")
        let proxy = try await MPRISProxy.start(session: session, system: system, bluez: bluez)
        defer { proxy.stop() }

        let connection = try Connection(address: session.address)
        defer { connection.close() }
        // Exported (with complete metadata) before the name is requested: mpris-proxy reads at once.
        let player = try await FakeMPRISPlayer.start(on: connection, name: Self.name, Self.harness)
        let owner = try await connection.nameOwner(Self.busName)
        XCTAssertEqual(owner, connection.uniqueName)

        let registered = try await bluez.waitForRegisteredPlayer()
        // mpris-proxy names the system-bus object after the player's unique name (`:1.7` → `/_1_7`).
        let expectedPath = "/" + connection.uniqueName.map { $0 == ":" || $0 == "." ? "_" : String($0) }.joined()
        XCTAssertEqual(registered.path, expectedPath)
        let properties = registered.properties
        XCTAssertEqual(properties["PlaybackStatus"], .string("Playing"))
        XCTAssertEqual(properties["LoopStatus"], .string("None"))
        XCTAssertEqual(properties["Shuffle"], .boolean(false))
        XCTAssertEqual(properties["Position"], .signed(1_500_000, code: "x"))
        for flag in ["CanPlay", "CanPause", "CanGoNext", "CanGoPrevious", "CanControl"] {
            XCTAssertEqual(properties[flag], .boolean(true), flag)
        }
        let metadata = try XCTUnwrap(properties["Metadata"], "\(properties)")
        XCTAssertEqual(metadata["xesam:title"], .string("Harness Song"))
        XCTAssertEqual(metadata["xesam:artist"], .array([.string("Harness Band")]))
        XCTAssertEqual(metadata["xesam:album"], .string("Harness Album"))
        XCTAssertEqual(metadata["mpris:length"], .signed(180_000_000, code: "x"))
        XCTAssertEqual(metadata["mpris:trackid"], .objectPath("/org/mprisd/track/1"))

        // The mock's own log agrees with what its signals reported.
        let logged = try await bluez.methodCalls("RegisterPlayer")
        XCTAssertEqual(logged.count, 1)
        XCTAssertEqual(logged.first?.first, .objectPath(expectedPath))
        XCTAssertEqual(logged.first?.last?["Metadata"], metadata)

        // Headset buttons: one-way calls on the system bus act exactly (a Pause is a Pause, never
        // a toggle, even twice). A final Next is the barrier: anything extra would arrive before it.
        let buttons = ["Play", "Pause", "Pause", "Stop", "Next", "Previous", "Play", "Next"]
        for button in buttons {
            try await proxy.pressButton(button)
        }
        let received = try await player.calls.wait(for: "\(buttons.count) button presses at the player") {
            $0.count >= buttons.count ? $0 : nil
        }
        XCTAssertEqual(received, buttons)
        XCTAssertEqual(player.status, "Playing")

        // Leaving: the name goes, UnregisterPlayer follows.
        let released = try await connection.releaseName(Self.busName)
        XCTAssertEqual(released, .released)
        try await bluez.waitForUnregisteredPlayer(registered.path)
        XCTAssertTrue(bluez.currentPlayers.isEmpty)
        XCTAssertTrue(proxy.isRunning, proxy.standardError)
    }

    /// A player already on the bus when mpris-proxy starts is found by its `ListNames` at start.
    func testPlayerPresentBeforeTheProxyIsRegistered() async throws {
        let session = try TestBus(.session)
        defer { session.stop() }
        let system = try TestBus(.system)
        defer { system.stop() }
        let connection = try Connection(address: session.address)
        defer { connection.close() }
        let player = try await FakeMPRISPlayer.start(on: connection, name: Self.name, Self.harness)

        let bluez = try await FakeBluez.start(on: system)
        defer { bluez.stop() }
        let proxy = try await MPRISProxy.start(session: session, system: system, bluez: bluez)
        defer { proxy.stop() }
        let registered = try await bluez.waitForRegisteredPlayer()
        XCTAssertEqual(registered.properties["PlaybackStatus"], .string("Playing"))
        try await proxy.pressButton("Pause")
        let received = try await player.calls.wait(for: "Pause at the player") { $0.isEmpty ? nil : $0 }
        XCTAssertEqual(received, ["Pause"])
        XCTAssertEqual(player.status, "Paused")

        // A name lost by closing the connection counts as leaving too.
        connection.close()
        try await bluez.waitForUnregisteredPlayer(registered.path)
    }
}
