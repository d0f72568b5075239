import Foundation

/// A fake bluetoothd that already has its adapter and devices when it takes the name `org.bluez`,
/// and never announces them with `InterfacesAdded`: the situation of a client that starts while
/// bluetoothd is restarting, or that appears on the bus after bluetoothd set everything up. Only
/// `GetManagedObjects` reveals these objects, so a monitor that does not read them when the name
/// appears sees nothing.
///
/// python3-dbusmock's `bluez5` template, extended by a template file of our own whose `load()`
/// adds adapter `hci0` (powered) and the given devices silently. The `org.bluez.Mock` helpers of
/// `bluez5` (`ConnectDevice`, `DisconnectDevice`, …) work on them, so `BluezMockControl` can drive
/// them afterwards.
public final class PreloadedFakeBluez: Sendable {
    /// One device present from the start.
    public struct Device: Sendable {
        public var address: String
        public var alias: String
        public var uuids: [String]
        public var connected: Bool

        public init(address: String, alias: String, uuids: [String], connected: Bool) {
            self.address = address
            self.alias = alias
            self.uuids = uuids
            self.connected = connected
        }

        /// The object path bluez5 gives the device on `hci0`.
        public var path: String { "/org/bluez/hci0/dev_" + address.replacingOccurrences(of: ":", with: "_").uppercased() }
    }

    private let process: BackgroundProcess
    private let directory: URL

    /// Starts the mock on `bus` (a `TestBus(.system)`); it takes `org.bluez` a moment later (wait
    /// for what the code under test sees, not for this call).
    public init(on bus: TestBus, devices: [Device]) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("mprisd-bluez-preloaded-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let template = directory.appendingPathComponent("bluez5_preloaded.py")
        try Self.template.write(to: template, atomically: true, encoding: .utf8)
        let parameters: [String: Any] = ["devices": devices.map { device in
            ["address": device.address.uppercased(), "alias": device.alias, "uuids": device.uuids,
             "connected": device.connected] as [String: Any]
        }]
        let json = String(decoding: try JSONSerialization.data(withJSONObject: parameters), as: UTF8.self)
        do {
            process = try BackgroundProcess(name: "dbusmock bluez5 (preloaded)", FakeBluez.python,
                                            ["-m", "dbusmock", "--system", "--template", template.path, "-p", json],
                                            environment: TestBus.environment(session: nil, system: bus))
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// What the mock wrote on standard error (for failure messages).
    public var diagnostics: String { process.standardError }

    /// Kills the mock (SIGKILL, as a crash would) and removes its files. Idempotent.
    public func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    deinit {
        stop()
    }

    private static let template = #"""
    import dbus
    from dbusmock.templates.bluez5 import *
    from dbusmock.templates import bluez5 as _base


    def load(mock, parameters):
        _base.load(mock, parameters)
        adapter = '/org/bluez/hci0'
        mock.AddObject(adapter, _base.ADAPTER_IFACE, {
            'Address': dbus.String('00:01:02:03:04:05', variant_level=1),
            'Alias': dbus.String('mprisd-test', variant_level=1),
            'Name': dbus.String('mprisd-test', variant_level=1),
            'Powered': dbus.Boolean(True, variant_level=1),
            'UUIDs': dbus.Array([], signature='s', variant_level=1),
        }, [('RemoveDevice', 'o', '', _base.RemoveDevice)])
        for device in parameters.get('devices', []):
            address = device['address']
            path = adapter + '/dev_' + address.replace(':', '_')
            mock.AddObject(path, _base.DEVICE_IFACE, {
                'Address': dbus.String(address, variant_level=1),
                'Alias': dbus.String(device['alias'], variant_level=1),
                'Name': dbus.String(device['alias'], variant_level=1),
                'Adapter': dbus.ObjectPath(adapter, variant_level=1),
                'UUIDs': dbus.Array(device['uuids'], signature='s', variant_level=1),
                'Paired': dbus.Boolean(True, variant_level=1),
                'Connected': dbus.Boolean(device['connected'], variant_level=1),
                'Blocked': dbus.Boolean(False, variant_level=1),
            }, [])
            mockobject.objects[path].connected = bool(device['connected'])
    """#
}
