import DBus

/// The names BlueZ (bluetoothd) uses on the system bus, in one place so the monitor, the object
/// mirror and the route rules agree on their spelling.
enum BluezNames {
    /// bluetoothd's well-known name.
    static let busName = "org.bluez"
    /// bluetoothd's object manager lives at the root: `InterfacesAdded`/`InterfacesRemoved` are
    /// emitted from `/`, not from under `/org/bluez`.
    static let objectManagerPath = ObjectPath.root
    /// Every adapter, device and transport lies below this path.
    static let objectNamespace = ObjectPath(trusted: "/org/bluez")

    static let adapterInterface = "org.bluez.Adapter1"
    static let deviceInterface = "org.bluez.Device1"
    static let transportInterface = "org.bluez.MediaTransport1"
    /// On each adapter: where players register (`RegisterPlayer`/`UnregisterPlayer`).
    static let mediaInterface = "org.bluez.Media1"

}
