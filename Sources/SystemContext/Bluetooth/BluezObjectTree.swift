import DBus

/// A local mirror of the BlueZ objects the monitor cares about: for each object path, its
/// interfaces and their last known properties (variants already unwrapped).
///
/// Filled from `GetManagedObjects` and kept current from `InterfacesAdded`, `InterfacesRemoved` and
/// `PropertiesChanged`. A plain value with no I/O, so the rules that turn it into routes can be
/// reasoned about (and tested) apart from the bus.
struct BluezObjectTree: Sendable, Equatable {
    typealias Properties = [String: DBusValue]

    /// Object path → interface name → properties.
    private(set) var objects: [ObjectPath: [String: Properties]] = [:]

    /// Replaces everything with a fresh snapshot (`GetManagedObjects`).
    mutating func replaceAll(with snapshot: [ObjectPath: [String: Properties]]) {
        objects = snapshot
    }

    /// Forgets everything (BlueZ is gone).
    mutating func removeAll() {
        objects.removeAll()
    }

    /// `InterfacesAdded`: the interfaces are new, or re-announced with complete properties.
    mutating func addInterfaces(_ interfaces: [String: Properties], at path: ObjectPath) {
        objects[path, default: [:]].merge(interfaces) { _, new in new }
    }

    /// `InterfacesRemoved`. An adapter that goes takes everything below it along: BlueZ does not
    /// always announce the removal of its devices first (a crash, an unplugged dongle), and a
    /// device of a vanished adapter is certainly not connected any more.
    mutating func removeInterfaces(_ interfaces: [String], at path: ObjectPath) {
        guard var current = objects[path] else { return }
        for interface in interfaces { current[interface] = nil }
        objects[path] = current.isEmpty ? nil : current
        if interfaces.contains(BluezNames.adapterInterface) {
            for key in objects.keys where key.isDescendant(of: path) { objects[key] = nil }
        }
    }

    /// `PropertiesChanged` on an interface the object is known to have; anything else (a property
    /// of an object announced to nobody) is ignored. An invalidated property is forgotten: BlueZ
    /// does not use invalidation, and a forgotten property reads as unknown (not connected).
    mutating func changeProperties(_ changed: Properties, invalidated: [String], interface: String,
                                   at path: ObjectPath) {
        guard var properties = objects[path]?[interface] else { return }
        properties.merge(changed) { _, new in new }
        for name in invalidated { properties[name] = nil }
        objects[path]?[interface] = properties
    }

    /// The properties of `interface` on `path`, if the object has that interface.
    func properties(of interface: String, at path: ObjectPath) -> Properties? {
        objects[path]?[interface]
    }

    /// Every object with `interface`, with its properties for that interface.
    func objects(with interface: String) -> [(path: ObjectPath, properties: Properties)] {
        objects.compactMap { path, interfaces in
            interfaces[interface].map { (path, $0) }
        }
    }
}
