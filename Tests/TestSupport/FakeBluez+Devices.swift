import DBus

/// Drives the devices of a python3-dbusmock `bluez5` fake (`FakeBluez`, or any mock that owns
/// `org.bluez` on `bus`) the way bluetoothd would change them: devices added, their `UUIDs`
/// resolved, connected and disconnected, removed; adapters powered off and removed; A2DP/HFP media
/// transports appearing and changing state.
///
/// Uses the template's `org.bluez.Mock` helpers where they exist (`AddDevice`, `ConnectDevice`,
/// `DisconnectDevice`, `RemoveAdapter`; `Adapter1.RemoveDevice`) and the generic
/// `org.freedesktop.DBus.Mock` methods for the rest (`UpdateProperties`, which emits
/// `PropertiesChanged`; `AddObject`/`RemoveObject` plus `EmitSignal` for the object manager's
/// `InterfacesAdded`/`InterfacesRemoved`, which dbusmock does not emit by itself). Each call
/// returns once the mock has answered, i.e. after it sent the signals.
public final class BluezMockControl: Sendable {
    public static let a2dpSink = "0000110b-0000-1000-8000-00805f9b34fb"
    public static let a2dpSource = "0000110a-0000-1000-8000-00805f9b34fb"
    public static let handsFree = "0000111e-0000-1000-8000-00805f9b34fb"
    /// Not audio: the Human Interface Device profile (a keyboard).
    public static let hid = "00001124-0000-1000-8000-00805f9b34fb"

    private static let mock = "org.freedesktop.DBus.Mock"
    private static let bluezMock = "org.bluez.Mock"

    private let connection: Connection

    /// Opens a connection of its own to `bus`.
    public init(bus: TestBus) throws {
        connection = try Connection(address: bus.address)
    }

    deinit {
        connection.close()
    }

    /// Adds an unconnected device with no UUIDs on adapter `adapter` (`hci0`); returns its path
    /// (`/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF`). `InterfacesAdded` follows.
    @discardableResult
    public func addDevice(adapter: String = "hci0", address: String, alias: String) async throws -> String {
        let reply = try await call("/", Self.bluezMock, "AddDevice",
                                   [.string(adapter), .string(address), .string(alias)])
        guard case .string(let path)? = reply.first else { throw TestSupportError("AddDevice returned \(reply)") }
        return path
    }

    /// Sets the device's `UUIDs` (as a pairing would); `PropertiesChanged` follows.
    public func setUUIDs(_ uuids: [String], device: String) async throws {
        try await updateProperties(device, "org.bluez.Device1",
                                   ["UUIDs": .array(element: .string, uuids.map { .string($0) })])
    }

    /// `Connected = true` (`org.bluez.Mock.ConnectDevice`).
    public func connect(adapter: String = "hci0", address: String) async throws {
        _ = try await call("/", Self.bluezMock, "ConnectDevice", [.string(adapter), .string(address)])
    }

    /// `Connected = false` (`org.bluez.Mock.DisconnectDevice`).
    public func disconnect(adapter: String = "hci0", address: String) async throws {
        _ = try await call("/", Self.bluezMock, "DisconnectDevice", [.string(adapter), .string(address)])
    }

    /// `Adapter1.RemoveDevice`: the device object goes, `InterfacesRemoved` follows.
    public func removeDevice(_ device: String, adapter: String = "/org/bluez/hci0") async throws {
        let path = try ObjectPath(device)
        _ = try await call(adapter, "org.bluez.Adapter1", "RemoveDevice", [.objectPath(path)])
    }

    /// The adapter's `Powered` property; `PropertiesChanged` follows (and nothing else: the
    /// devices keep `Connected` as they were, which is what the monitor has to cope with).
    public func setPowered(_ powered: Bool, adapter: String = "/org/bluez/hci0") async throws {
        try await updateProperties(adapter, "org.bluez.Adapter1", ["Powered": .boolean(powered)])
    }

    /// `org.bluez.Mock.RemoveAdapter`: only the adapter's `InterfacesRemoved`, not its devices'.
    public func removeAdapter(_ name: String = "hci0") async throws {
        _ = try await call("/", Self.bluezMock, "RemoveAdapter", [.string(name)])
    }

    /// Adds a `org.bluez.MediaTransport1` at `path` (below the device, like bluetoothd's
    /// `…/dev_X/sep1/fd0`) for `device` with profile `uuid` and `state`, then emits its
    /// `InterfacesAdded`.
    public func addTransport(_ path: String, device: String, uuid: String, state: String) async throws {
        let properties: [String: DBusValue] = [
            "Device": .objectPath(try ObjectPath(device)),
            "UUID": .string(uuid),
            "State": .string(state),
            "Codec": .byte(2),
            "Volume": .uint16(100),
        ]
        _ = try await call("/", Self.mock, "AddObject",
                           [.string(path), .string("org.bluez.MediaTransport1"), Self.dictionary(properties),
                            .array(element: .struct([.string, .string, .string, .string]), [])])
        let interfaces = DBusValue.dictionary(key: .string, value: .dictionary(key: .string, value: .variant), [
            DictionaryEntry(.string("org.bluez.MediaTransport1"), Self.dictionary(properties)),
        ])
        try await emitFromObjectManager("InterfacesAdded", "oa{sa{sv}}",
                                        [.objectPath(try ObjectPath(path)), interfaces])
    }

    /// The transport's `State` (`idle`, `pending`, `active`); `PropertiesChanged` follows.
    public func setTransportState(_ state: String, transport: String) async throws {
        try await updateProperties(transport, "org.bluez.MediaTransport1", ["State": .string(state)])
    }

    /// Removes the transport and emits its `InterfacesRemoved`.
    public func removeTransport(_ path: String) async throws {
        _ = try await call("/", Self.mock, "RemoveObject", [.string(path)])
        try await emitFromObjectManager("InterfacesRemoved", "oas",
                                        [.objectPath(try ObjectPath(path)),
                                         .array(element: .string, [.string("org.bluez.MediaTransport1")])])
    }

    // MARK: Plumbing

    private func updateProperties(_ path: String, _ interface: String, _ properties: [String: DBusValue]) async throws {
        _ = try await call(path, Self.mock, "UpdateProperties", [.string(interface), Self.dictionary(properties)])
    }

    private func emitFromObjectManager(_ member: String, _ signature: String, _ arguments: [DBusValue]) async throws {
        _ = try await call("/", Self.mock, "EmitSignal",
                           [.string("org.freedesktop.DBus.ObjectManager"), .string(member), .string(signature),
                            .array(element: .variant, arguments.map { .variant($0) })])
    }

    private func call(_ path: String, _ interface: String, _ member: String,
                      _ arguments: [DBusValue]) async throws -> [DBusValue] {
        try await connection.call(destination: "org.bluez", path: try ObjectPath(path), interface: interface,
                                  member: member, arguments, timeout: .seconds(10))
    }

    private static func dictionary(_ properties: [String: DBusValue]) -> DBusValue {
        .dictionary(key: .string, value: .variant,
                    properties.sorted { $0.key < $1.key }.map { DictionaryEntry(.string($0.key), .variant($0.value)) })
    }
}
