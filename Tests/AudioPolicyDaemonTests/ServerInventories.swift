import AudioServer

/// Synthetic inventories and changes for the route rules: sinks and sources by name, indices
/// handed out in order, as a server would.
struct ServerInventories {
    var inventory = AudioInventory(server: ServerIdentity(name: "pulseaudio", version: "16.1", cookie: 1))
    private var nextIndex: UInt32 = 0

    /// Adds a sink; returns its id.
    @discardableResult
    mutating func addSink(_ name: String, description: String = "", properties: [String: String] = [:],
                          ports: [DevicePort] = [], activePort: String? = nil) -> DeviceID {
        nextIndex += 1
        let id = DeviceID(.sink, nextIndex)
        inventory.devices[id] = AudioDevice(id: id, name: name, description: description.isEmpty ? name : description,
                                            ports: ports, activePort: activePort, properties: properties)
        inventory.defaultSink = inventory.defaultSink ?? name
        return id
    }

    /// Adds a source (a monitor when `monitorOf` is given).
    @discardableResult
    mutating func addSource(_ name: String, muted: Bool = false, monitorOf: UInt32? = nil) -> DeviceID {
        nextIndex += 1
        let id = DeviceID(.source, nextIndex)
        inventory.devices[id] = AudioDevice(id: id, name: name, isMuted: muted, monitorOfSink: monitorOf)
        return id
    }

    mutating func remove(_ kind: DeviceKind, named name: String) {
        guard let device = inventory.device(kind, named: name) else { return }
        inventory.devices[device.id] = nil
    }

    mutating func edit(_ kind: DeviceKind, named name: String, _ body: (inout AudioDevice) -> Void) {
        guard var device = inventory.device(kind, named: name) else { return }
        body(&device)
        inventory.devices[device.id] = device
    }

    /// The change from `previous` to the inventory now (an event of the connected server).
    func updated(from previous: AudioInventory) -> InventoryChange {
        InventoryChange(kind: .updated, previous: previous, current: inventory)
    }

    /// A (re)connection reading the inventory now.
    func connected() -> InventoryChange {
        InventoryChange(kind: .connected, previous: AudioInventory(), current: inventory)
    }

    /// The server going away.
    func disconnected() -> InventoryChange {
        InventoryChange(kind: .disconnected(reason: "server gone"), previous: inventory, current: AudioInventory())
    }

    /// Applies `body` and returns the change it makes.
    mutating func change(_ body: (inout ServerInventories) -> Void) -> InventoryChange {
        let previous = inventory
        body(&self)
        return updated(from: previous)
    }
}
