import DBus
import Foundation
import TestSupport
import XCTest

/// The Bluetooth headset path with real programs: the real `mpris-proxy` between a private
/// session bus (the player) and a private system bus with python3-dbusmock's bluez5 template (the
/// fake bluetoothd). Self-test of `FakeBluez` and `MPRISProxy` with a minimal player exported by
/// the project's D-Bus binding; `mprisd play` is tested the same way.
final class BluetoothPathTests: XCTestCase {
    private static let busName = "org.mpris.MediaPlayer2.harnesstest"

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
        let player = HarnessPlayer()
        // Exported (with complete metadata) before the name is requested: mpris-proxy reads at once.
        _ = try connection.export(try ObjectPath("/org/mpris/MediaPlayer2"), interfaces: player.interfaces)
        let reply = try await connection.requestName(Self.busName, flags: .doNotQueue)
        XCTAssertEqual(reply, .primaryOwner)

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
        let player = HarnessPlayer()
        _ = try connection.export(try ObjectPath("/org/mpris/MediaPlayer2"), interfaces: player.interfaces)
        let reply = try await connection.requestName(Self.busName, flags: .doNotQueue)
        XCTAssertEqual(reply, .primaryOwner)

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

/// A minimal MPRIS player: fixed metadata, a playback status that follows Play/Pause/Stop, and a
/// record of every Player method called.
private final class HarnessPlayer: Sendable {
    let calls = EventRecord<String>()
    private let state = EventRecord<String>()  // playback status changes; the last one is current

    var status: String { state.elements.last ?? "Playing" }

    var interfaces: [Interface] {
        let calls = self.calls
        let state = self.state
        func control(_ name: String, _ status: String?) -> DBus.Method {
            .immediate(name) { _ in
                if let status { state.append(status) }
                calls.append(name)
                return []
            }
        }
        func constant(_ name: String, _ type: DBusType, _ value: DBusValue) -> Property {
            Property(name, type, changeSignal: .constant, get: { value })
        }
        let flag = { (name: String) in constant(name, .boolean, .boolean(true)) }
        let metadata = DBusValue.dictionary(key: .string, value: .variant, [
            DictionaryEntry(.string("mpris:trackid"), .variant(.objectPath(try! ObjectPath("/org/mprisd/track/1")))),
            DictionaryEntry(.string("mpris:length"), .variant(.int64(180_000_000))),
            DictionaryEntry(.string("xesam:title"), .variant(.string("Harness Song"))),
            DictionaryEntry(.string("xesam:artist"), .variant(.array(element: .string, [.string("Harness Band")]))),
            DictionaryEntry(.string("xesam:album"), .variant(.string("Harness Album"))),
        ])
        let root = Interface("org.mpris.MediaPlayer2", methods: [
            .immediate("Raise") { _ in [] },
            .immediate("Quit") { _ in [] },
        ], properties: [
            constant("Identity", .string, .string("Harness Player")),
            constant("DesktopEntry", .string, .string("mprisd")),
            constant("CanQuit", .boolean, .boolean(false)),
            constant("CanRaise", .boolean, .boolean(false)),
            constant("HasTrackList", .boolean, .boolean(false)),
            constant("SupportedUriSchemes", .array(.string), .array(element: .string, [])),
            constant("SupportedMimeTypes", .array(.string), .array(element: .string, [])),
        ])
        let player = Interface("org.mpris.MediaPlayer2.Player", methods: [
            control("Play", "Playing"),
            control("Pause", "Paused"),
            control("PlayPause", nil),
            control("Stop", "Stopped"),
            control("Next", nil),
            control("Previous", nil),
            .immediate("Seek", inputs: [Argument("Offset", .int64)]) { _ in calls.append("Seek"); return [] },
            .immediate("SetPosition", inputs: [Argument("TrackId", .objectPath), Argument("Position", .int64)]) { _ in
                calls.append("SetPosition")
                return []
            },
            .immediate("OpenUri", inputs: [Argument("Uri", .string)]) { _ in calls.append("OpenUri"); return [] },
        ], properties: [
            Property("PlaybackStatus", .string, get: { .string(state.elements.last ?? "Playing") }),
            constant("LoopStatus", .string, .string("None")),
            constant("Rate", .double, .double(1)),
            constant("MinimumRate", .double, .double(1)),
            constant("MaximumRate", .double, .double(1)),
            constant("Shuffle", .boolean, .boolean(false)),
            constant("Metadata", .dictionary(key: .string, value: .variant), metadata),
            constant("Volume", .double, .double(1)),
            Property("Position", .int64, changeSignal: .none, get: { .int64(1_500_000) }),
            flag("CanGoNext"), flag("CanGoPrevious"), flag("CanPlay"), flag("CanPause"), flag("CanSeek"),
            flag("CanControl"),
        ], signals: [SignalDescription("Seeked", [Argument("Position", .int64)])])
        return [root, player]
    }
}
