import DBus

/// Reads the bodies of the ObjectManager and Properties messages BlueZ sends into plain Swift
/// values.
///
/// What arrives is outside input: a malformed entry is skipped, never trapped on, and a message
/// whose shape is wrong as a whole decodes to nil (the monitor then ignores it).
enum BluezSignalDecoding {
    typealias Properties = BluezObjectTree.Properties

    /// `GetManagedObjects` reply: `a{oa{sa{sv}}}`.
    static func managedObjects(_ body: [DBusValue]) -> [ObjectPath: [String: Properties]]? {
        guard case .dictionary(_, _, let entries)? = body.first else { return nil }
        var objects: [ObjectPath: [String: Properties]] = [:]
        for entry in entries {
            guard case .objectPath(let path) = entry.key, let interfaces = interfaces(entry.value) else { continue }
            objects[path] = interfaces
        }
        return objects
    }

    /// `InterfacesAdded(o path, a{sa{sv}} interfaces)`.
    static func interfacesAdded(_ body: [DBusValue]) -> (path: ObjectPath, interfaces: [String: Properties])? {
        guard body.count >= 2, case .objectPath(let path) = body[0], let interfaces = interfaces(body[1]) else {
            return nil
        }
        return (path, interfaces)
    }

    /// `InterfacesRemoved(o path, as interfaces)`.
    static func interfacesRemoved(_ body: [DBusValue]) -> (path: ObjectPath, interfaces: [String])? {
        guard body.count >= 2, case .objectPath(let path) = body[0], let names = strings(body[1]) else { return nil }
        return (path, names)
    }

    /// `PropertiesChanged(s interface, a{sv} changed, as invalidated)`.
    static func propertiesChanged(_ body: [DBusValue]) -> (interface: String, changed: Properties, invalidated: [String])? {
        guard body.count >= 2, case .string(let interface) = body[0], let changed = properties(body[1]) else {
            return nil
        }
        let invalidated = body.count >= 3 ? strings(body[2]) ?? [] : []
        return (interface, changed, invalidated)
    }

    /// `a{sa{sv}}`: interface → properties.
    static func interfaces(_ value: DBusValue) -> [String: Properties]? {
        guard case .dictionary(_, _, let entries) = value else { return nil }
        var result: [String: Properties] = [:]
        for entry in entries {
            guard case .string(let name) = entry.key, let properties = properties(entry.value) else { continue }
            result[name] = properties
        }
        return result
    }

    /// `a{sv}`, variants unwrapped.
    static func properties(_ value: DBusValue) -> Properties? {
        guard case .dictionary(_, _, let entries) = value else { return nil }
        var result: Properties = [:]
        for entry in entries {
            guard case .string(let name) = entry.key else { continue }
            if case .variant(let inner) = entry.value {
                result[name] = inner
            } else {
                result[name] = entry.value
            }
        }
        return result
    }

    /// `as` (its non-string elements skipped).
    static func strings(_ value: DBusValue) -> [String]? {
        guard case .array(_, let items) = value else { return nil }
        return items.compactMap {
            if case .string(let text) = $0 { return text }
            return nil
        }
    }
}
