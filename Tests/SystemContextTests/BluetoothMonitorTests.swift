import DBus
import Foundation
import SessionCore
import SystemContext
import TestSupport
import XCTest

/// `BluetoothMonitor` against python3-dbusmock's bluez5 fake on a private system bus: headsets
/// connecting and disconnecting, devices and adapters removed or switched off, media transports,
/// BlueZ absent, killed and restarted, and no wake-ups while nothing changes.
final class BluetoothMonitorTests: XCTestCase {
    private static let headsetAddress = "00:1B:66:AA:BB:01"
    private static let headsetPath = "/org/bluez/hci0/dev_00_1B_66_AA_BB_01"

    // MARK: Connecting and disconnecting

    func testA2DPHeadsetConnectingAndDisconnecting() async throws {
        let rig = try await Rig.withFakeBluez()
        defer { rig.stop() }
        let path = try await rig.control.addDevice(address: Self.headsetAddress, alias: "Momentum 4")
        try await rig.control.setUUIDs([BluezMockControl.a2dpSink, BluezMockControl.handsFree], device: path)
        XCTAssertTrue(rig.monitor.routes.isEmpty, "a paired device that is not connected is no route")

        try await rig.control.connect(address: Self.headsetAddress)
        let port = AudioPort(id: path, name: "Momentum 4", type: .bluetoothA2DP)
        try await rig.waitFor(.connected(port))
        XCTAssertEqual(rig.monitor.routes, [port])

        try await rig.control.disconnect(address: Self.headsetAddress)
        try await rig.waitFor(.disconnected(port))
        XCTAssertEqual(rig.monitor.routes, [])
        XCTAssertEqual(rig.events.elements, [.connected(port), .disconnected(port)])
        XCTAssertEqual(rig.events.elements.map(\.reason), [.newDeviceAvailable, .oldDeviceUnavailable])
    }

    func testRemovingAConnectedDeviceIsADisconnection() async throws {
        let rig = try await Rig.withFakeBluez()
        defer { rig.stop() }
        let path = try await rig.connectedHeadset(uuids: [BluezMockControl.a2dpSink], alias: "Speaker")
        let port = AudioPort(id: path, name: "Speaker", type: .bluetoothA2DP)
        try await rig.waitFor(.connected(port))

        try await rig.control.removeDevice(path)  // InterfacesRemoved, Connected never went false
        try await rig.waitFor(.disconnected(port))
        XCTAssertEqual(rig.monitor.routes, [])
    }

    func testDeviceWithoutAudioProfilesIsNoRouteAndHandsFreeIsHFP() async throws {
        let rig = try await Rig.withFakeBluez()
        defer { rig.stop() }
        let keyboard = try await rig.control.addDevice(address: "00:1B:66:AA:BB:02", alias: "Keyboard")
        try await rig.control.setUUIDs([BluezMockControl.hid], device: keyboard)
        try await rig.control.connect(address: "00:1B:66:AA:BB:02")

        // A hands-free-only headset afterwards: once it is reported, the keyboard would have been too.
        let headset = try await rig.connectedHeadset(uuids: [BluezMockControl.handsFree], alias: "Car kit")
        let port = AudioPort(id: headset, name: "Car kit", type: .bluetoothHFP)
        try await rig.waitFor(.connected(port))
        XCTAssertEqual(rig.events.elements, [.connected(port)], "the keyboard must not be a route")
        XCTAssertEqual(rig.monitor.routes, [port])
    }

    // MARK: Adapters and transports

    func testAdapterPoweredOffOrRemovedDisconnectsItsHeadsets() async throws {
        let rig = try await Rig.withFakeBluez()
        defer { rig.stop() }
        let path = try await rig.connectedHeadset(uuids: [BluezMockControl.a2dpSink], alias: "Buds")
        let port = AudioPort(id: path, name: "Buds", type: .bluetoothA2DP)
        try await rig.waitFor(.connected(port))

        try await rig.control.setPowered(false)
        try await rig.waitFor(.disconnected(port))
        try await rig.control.setPowered(true)
        try await rig.waitFor(.connected(port), count: 2)

        try await rig.control.removeAdapter()  // the mock announces only the adapter's removal
        try await rig.waitFor(.disconnected(port), count: 2)
        XCTAssertEqual(rig.monitor.routes, [])
    }

    func testMediaTransportConfirmsADeviceWithoutAudioUUIDs() async throws {
        let rig = try await Rig.withFakeBluez()
        defer { rig.stop() }
        let path = try await rig.connectedHeadset(uuids: [], alias: "Unresolved")
        let transport = path + "/sep1/fd0"
        // A transport that is not configured yet confirms nothing.
        try await rig.control.addTransport(transport, device: path, uuid: BluezMockControl.a2dpSource,
                                           state: "unknown")
        try await rig.control.setTransportState("idle", transport: transport)
        let port = AudioPort(id: path, name: "Unresolved", type: .bluetoothA2DP)
        try await rig.waitFor(.connected(port))
        XCTAssertEqual(rig.events.elements, [.connected(port)])

        try await rig.control.setTransportState("active", transport: transport)  // still the same route
        try await rig.control.removeTransport(transport)
        try await rig.waitFor(.disconnected(port))
        XCTAssertEqual(rig.events.elements, [.connected(port), .disconnected(port)])
    }

    // MARK: BlueZ absent, killed, restarted

    func testBluezAbsentAtStartThenStartingWithAConnectedHeadset() async throws {
        let rig = try await Rig.withoutBluez()
        defer { rig.stop() }
        XCTAssertFalse(rig.monitor.isBluezRunning)
        XCTAssertEqual(rig.monitor.routes, [])

        // The objects exist before the name is taken and are never announced: only
        // GetManagedObjects on the name's appearance finds the headset.
        let headset = PreloadedFakeBluez.Device(address: Self.headsetAddress, alias: "WH-1000XM5",
                                                uuids: [BluezMockControl.a2dpSink], connected: true)
        let idle = PreloadedFakeBluez.Device(address: "00:1B:66:AA:BB:09", alias: "Old speaker",
                                             uuids: [BluezMockControl.a2dpSink], connected: false)
        let bluez = try PreloadedFakeBluez(on: rig.bus, devices: [headset, idle])
        defer { bluez.stop() }
        let port = AudioPort(id: headset.path, name: "WH-1000XM5", type: .bluetoothA2DP)
        try await rig.waitFor(.connected(port), diagnostics: bluez.diagnostics)
        XCTAssertTrue(rig.monitor.isBluezRunning)
        XCTAssertEqual(rig.events.elements, [.connected(port)])
        XCTAssertEqual(rig.monitor.routes, [port])
    }

    func testBluezKilledWhileAHeadsetIsConnectedThenRestarted() async throws {
        let bus = try TestBus(.system)
        let headset = PreloadedFakeBluez.Device(address: Self.headsetAddress, alias: "Headset",
                                                uuids: [BluezMockControl.a2dpSink], connected: true)
        let first = try PreloadedFakeBluez(on: bus, devices: [headset])
        defer { first.stop() }
        try await Rig.waitForBluez(on: bus)

        // Started while BlueZ runs: the snapshot at start reports the headset.
        let rig = try await Rig(bus: bus)
        defer { rig.stop() }
        let port = AudioPort(id: headset.path, name: "Headset", type: .bluetoothA2DP)
        // `start` completes once the snapshot is in: the headset is reported by then.
        XCTAssertEqual(rig.events.elements, [.connected(port)])
        XCTAssertEqual(rig.monitor.routes, [port])
        XCTAssertTrue(rig.monitor.isBluezRunning)

        first.stop()  // SIGKILL: no InterfacesRemoved, no PropertiesChanged, only the name going
        try await rig.waitFor(.disconnected(port))
        XCTAssertFalse(rig.monitor.isBluezRunning)
        XCTAssertEqual(rig.monitor.routes, [])

        let second = try PreloadedFakeBluez(on: bus, devices: [headset])
        defer { second.stop() }
        try await rig.waitFor(.connected(port), count: 2)
        XCTAssertEqual(rig.events.elements, [.connected(port), .disconnected(port), .connected(port)])
    }

    // MARK: Life cycle

    func testStoppedMonitorReportsNothingMore() async throws {
        let rig = try await Rig.withFakeBluez()
        defer { rig.stop() }
        let path = try await rig.connectedHeadset(uuids: [BluezMockControl.a2dpSink], alias: "Stopped")
        let port = AudioPort(id: path, name: "Stopped", type: .bluetoothA2DP)
        try await rig.waitFor(.connected(port))

        // A second monitor on the same bus tells when the disconnection has been delivered.
        let witness = try await Rig(bus: rig.bus)
        defer { witness.stop() }
        XCTAssertEqual(witness.events.elements, [.connected(port)])

        rig.monitor.stop()
        XCTAssertEqual(rig.monitor.routes, [], "a stopped monitor knows no routes")
        try await rig.control.disconnect(address: Self.headsetAddress)
        try await witness.waitFor(.disconnected(port))
        XCTAssertEqual(rig.events.elements, [.connected(port)], "stopping is not a disconnection, and ends reporting")

        let again = await rig.startError()
        XCTAssertNotNil(again, "a stopped monitor does not start again")
    }

    func testStartOnAClosedConnectionFailsWithoutCrashing() async throws {
        let bus = try TestBus(.system)
        defer { bus.stop() }
        let connection = try Connection(address: bus.address)
        connection.close()
        let monitor = BluetoothMonitor(connection: connection) { _ in }
        let error: DBusError? = await withCheckedContinuation { continuation in
            monitor.start { result in
                if case .failure(let error) = result { continuation.resume(returning: error) } else {
                    continuation.resume(returning: nil)
                }
            }
        }
        XCTAssertEqual(error?.name, "org.freedesktop.DBus.Error.Disconnected")
        XCTAssertEqual(monitor.routes, [])
    }

    // MARK: Idle

    func testNoWakeUpsWhileNothingChanges() async throws {
        let rig = try await Rig.withFakeBluez()
        defer { rig.stop() }
        let path = try await rig.connectedHeadset(uuids: [BluezMockControl.a2dpSink], alias: "Idle")
        let port = AudioPort(id: path, name: "Idle", type: .bluetoothA2DP)
        try await rig.waitFor(.connected(port))

        let thread = try await rig.ioThreadID()
        let asleep = await ProcessThreads.waitUntilAsleepInPoll([thread])
        XCTAssertTrue(asleep, "the I/O thread did not go back to sleep after the ping")
        let before = try ProcessThreads.contextSwitches(thread)
        // time is the subject here: a second of idleness, in which the thread may not wake
        try await Task.sleep(for: .seconds(1))
        let after = try ProcessThreads.contextSwitches(thread)
        XCTAssertEqual(after, before, "the monitor's I/O thread woke up while nothing changed")

        // The same measurement does see the thread work when BlueZ says something.
        try await rig.control.disconnect(address: Self.headsetAddress)
        try await rig.waitFor(.disconnected(port))
        XCTAssertGreaterThan(try ProcessThreads.contextSwitches(thread), after)
    }
}

/// A private system bus, a started `BluetoothMonitor` on a connection of its own, the events it
/// reported, and (with the fake) a bluez5 mock and its controls.
private final class Rig: Sendable {
    let bus: TestBus
    let connection: Connection
    let monitor: BluetoothMonitor
    let events: EventRecord<BluetoothRouteEvent>
    private let fake: FakeBluez?
    private let controller: BluezMockControl?

    var control: BluezMockControl {
        get throws {
            guard let controller else { throw TestSupportError("this rig has no fake bluetoothd") }
            return controller
        }
    }

    init(bus: TestBus, fake: FakeBluez? = nil) async throws {
        self.bus = bus
        self.fake = fake
        controller = fake == nil ? nil : try BluezMockControl(bus: bus)
        connection = try Connection(address: bus.address)
        let events = EventRecord<BluetoothRouteEvent>()
        self.events = events
        monitor = BluetoothMonitor(connection: connection) { events.append($0) }
        let monitor = self.monitor
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            monitor.start { continuation.resume(with: $0.mapError { $0 as any Error }) }
        }
    }

    static func withFakeBluez() async throws -> Rig {
        let bus = try TestBus(.system)
        let fake = try await FakeBluez.start(on: bus)
        return try await Rig(bus: bus, fake: fake)
    }

    static func withoutBluez() async throws -> Rig {
        try await Rig(bus: TestBus(.system))
    }

    /// Waits until `org.bluez` has an owner on `bus`.
    static func waitForBluez(on bus: TestBus) async throws {
        let connection = try Connection(address: bus.address)
        defer { connection.close() }
        let owned = EventRecord<Bool>()
        let watch = try await connection.watchNameOwner("org.bluez") { if $0 != nil { owned.append(true) } }
        defer { watch.cancel() }
        try await owned.wait(for: "org.bluez to get an owner", timeout: .seconds(10)) { $0.first }
    }

    /// Adds a device with `uuids` and connects it; returns its path.
    func connectedHeadset(uuids: [String], alias: String, address: String = "00:1B:66:AA:BB:01") async throws -> String {
        let path = try await control.addDevice(address: address, alias: alias)
        try await control.setUUIDs(uuids, device: path)
        try await control.connect(address: address)
        return path
    }

    /// Waits until `event` was reported `count` times in all.
    func waitFor(_ event: BluetoothRouteEvent, count: Int = 1, diagnostics: String? = nil) async throws {
        do {
            try await events.wait(for: "\(event) ×\(count)", timeout: .seconds(5)) { reported in
                reported.filter { $0 == event }.count >= count ? true : nil
            }
        } catch {
            throw TestSupportError("\(error); events so far: \(events.elements)"
                + "\n\(diagnostics ?? fake?.diagnostics ?? "")")
        }
    }

    /// The id of the monitor connection's I/O thread (a reply's completion runs there).
    func ioThreadID() async throws -> Int32 {
        let ping = Message.methodCall(destination: "org.freedesktop.DBus", path: try ObjectPath("/org/freedesktop/DBus"),
                                      interface: "org.freedesktop.DBus.Peer", member: "Ping")
        return try await withCheckedThrowingContinuation { continuation in
            connection.call(ping) { result in
                continuation.resume(with: result.map { _ in Rig.currentThreadID() }.mapError { $0 as any Error })
            }
        }
    }

    /// Starts the monitor again and returns the error it reports (nil if it started).
    func startError() async -> DBusError? {
        await withCheckedContinuation { continuation in
            monitor.start { result in
                if case .failure(let error) = result { continuation.resume(returning: error) } else {
                    continuation.resume(returning: nil)
                }
            }
        }
    }

    /// The kernel id of the calling thread (`/proc/thread-self` → `PID/task/TID`).
    static func currentThreadID() -> Int32 {
        let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
        return link.split(separator: "/").last.flatMap { Int32($0) } ?? -1
    }

    func stop() {
        monitor.stop()
        connection.close()
        fake?.stop()
        bus.stop()
    }
}
