import DBus
import Posix
import SystemContext
#if canImport(Glibc)
import Glibc
#endif

/// Reads and writes the values `mprisd setup` changes, one store each (`SetupChange.Store`):
/// dconf through libdconf, files directly (replaced atomically), user units through the systemd
/// user manager on the session bus (`org.freedesktop.systemd1.Manager`, as `systemctl --user`).
struct SetupStores {
    let session: Connection?

    static let systemd = (name: "org.freedesktop.systemd1", path: ObjectPath(trusted: "/org/freedesktop/systemd1"),
                          interface: "org.freedesktop.systemd1.Manager")
    static let patience: Duration = .seconds(5)

    /// The value now; nil for unset, absent, not masked or stopped.
    func read(_ store: SetupChange.Store, _ key: String) throws(SetupError) -> String? {
        switch store {
        case .dconf:
            if let reason = DconfStore.unavailable { throw SetupError(reason) }
            return DconfStore.read(key)
        case .xfconf:
            let (channel, property) = try Self.xfconfKey(key)
            do {
                let reply = try xfconf("GetProperty", [.string(channel), .string(property)])
                guard let value = reply.first, let text = XfconfValue.text(value) else {
                    throw SetupError("xfconf \(key) holds a value of a type setup does not change")
                }
                return text
            } catch let error as DBusError where error.name == "org.xfce.Xfconf.Error.PropertyNotFound"
                || error.name == "org.xfce.Xfconf.Error.ChannelNotFound" {
                return nil
            } catch let error as SetupError {
                throw error
            } catch {
                throw SetupError("xfconfd did not answer GetProperty(\(key)): \(error)")
            }
        case .kglobalaccel:
            let id = try Self.kglobalaccelID(key)
            guard try kglobalaccelActions(id[0])[id[1]] != nil else { return nil }
            do {
                let reply = try kglobalaccel("shortcut", [.array(element: .string, id.map(DBusValue.string))])
                guard case .array(_, let keys)? = reply.first else { return "" }
                return KGlobalAccelKeys.text(keys.compactMap { if case .int32(let code) = $0 { Int(code) } else { nil } })
            } catch {
                throw SetupError("kglobalaccel did not answer shortcut(\(key)): \(error)")
            }
        case .file:
            do {
                return try SettingsFile.read(key)
            } catch {
                throw SetupError("cannot read \(key): \(error)")
            }
        case .unitMask:
            return try unitFileState(key).hasPrefix("masked") ? "masked" : nil
        case .unitActive:
            return try unitIsActive(key) ? "active" : nil
        }
    }

    /// Puts `value` there (nil: resets the key, removes the file, unmasks, stops).
    func write(_ store: SetupChange.Store, _ key: String, _ value: String?) throws(SetupError) {
        switch store {
        case .dconf:
            if let failure = DconfStore.write(key, value) { throw SetupError("cannot write \(key): \(failure)") }
        case .xfconf:
            let (channel, property) = try Self.xfconfKey(key)
            do {
                if let value {
                    guard let typed = XfconfValue.value(value) else { throw SetupError("not an xfconf value: \(value)") }
                    _ = try xfconf("SetProperty", [.string(channel), .string(property), .variant(typed)])
                } else {
                    _ = try xfconf("ResetProperty", [.string(channel), .string(property), .boolean(false)])
                }
            } catch let error as SetupError {
                throw error
            } catch {
                throw SetupError("xfconfd refused \(key): \(error)")
            }
        case .kglobalaccel:
            let id = try Self.kglobalaccelID(key)
            let actionID = DBusValue.array(element: .string, id.map(DBusValue.string))
            do {
                if let value {
                    let keys = DBusValue.array(element: .int32, KGlobalAccelKeys.parse(value).map { .int32(Int32(truncatingIfNeeded: $0)) })
                    if id[0].hasSuffix(".desktop") {
                        // A launcher of setup's own: registered, present (its key grabbed) and
                        // given exactly these keys (SetPresent | NoAutoloading).
                        _ = try kglobalaccel("doRegister", [actionID])
                        _ = try kglobalaccel("setShortcut", [actionID, keys, .uint32(2 | 4)])
                    } else {
                        // Another component's shortcut, as System Settings changes it.
                        _ = try kglobalaccel("setForeignShortcut", [actionID, keys])
                    }
                } else {
                    _ = try kglobalaccel("unregister", [.string(id[0]), .string(id[1])])
                }
            } catch {
                throw SetupError("kglobalaccel refused \(key): \(error)")
            }
        case .file:
            do {
                if let value { try StateFile(path: key).replace(contents: value) } else { try StateFile(path: key).remove() }
            } catch {
                throw SetupError("\(error)")
            }
        case .unitMask:
            if value != nil {
                try manager("MaskUnitFiles", [.array(element: .string, [.string(key)]), .boolean(false), .boolean(false)])
            } else {
                try manager("UnmaskUnitFiles", [.array(element: .string, [.string(key)]), .boolean(false)])
            }
            try manager("Reload", [])
        case .unitActive:
            try manager(value != nil ? "StartUnit" : "StopUnit", [.string(key), .string("replace")])
        }
    }

    /// `GetUnitFileState`: "enabled", "disabled", "masked", …; "" for a unit the manager has no file of.
    func unitFileState(_ unit: String) throws(SetupError) -> String {
        do {
            guard case .string(let state)? = try managerCall("GetUnitFileState", [.string(unit)]).first else { return "" }
            return state
        } catch where error.name == "org.freedesktop.DBus.Error.FileNotFound" || error.name.hasSuffix("NoSuchUnit") {
            return ""
        } catch {
            throw SetupError("the systemd user manager did not answer GetUnitFileState(\(unit)): \(error)")
        }
    }

    /// Whether the unit is loaded and active (`GetUnit`, then its `ActiveState`).
    func unitIsActive(_ unit: String) throws(SetupError) -> Bool {
        let path: ObjectPath
        do {
            guard case .objectPath(let loaded)? = try managerCall("GetUnit", [.string(unit)]).first else { return false }
            path = loaded
        } catch where error.name.hasSuffix("NoSuchUnit") {
            return false
        } catch {
            throw SetupError("the systemd user manager did not answer GetUnit(\(unit)): \(error)")
        }
        guard let session else { throw SetupError("no session bus") }
        let get = Message.methodCall(destination: Self.systemd.name, path: path, interface: "org.freedesktop.DBus.Properties",
                                     member: "Get", body: [.string("org.freedesktop.systemd1.Unit"), .string("ActiveState")])
        do {
            let reply = try session.callAndWait(get, timeout: Self.patience)
            guard case .variant(.string(let state))? = reply.body.first else { return false }
            return state == "active" || state == "activating" || state == "reloading"
        } catch {
            throw SetupError("cannot read \(unit)'s ActiveState: \(error)")
        }
    }

    /// Whether a systemd user manager answers on the session bus.
    var hasUserManager: Bool {
        guard let session else { return false }
        let call = Message.methodCall(destination: "org.freedesktop.DBus", path: ObjectPath(trusted: "/org/freedesktop/DBus"),
                                      interface: "org.freedesktop.DBus", member: "NameHasOwner", body: [.string(Self.systemd.name)])
        guard let reply = try? session.callAndWait(call, timeout: Self.patience), case .boolean(let owned)? = reply.body.first else { return false }
        return owned
    }

    static let xfconfService = (name: "org.xfce.Xfconf", path: ObjectPath(trusted: "/org/xfce/Xfconf"), interface: "org.xfce.Xfconf")

    /// `CHANNEL:PROPERTY` split.
    static func xfconfKey(_ key: String) throws(SetupError) -> (String, String) {
        guard let colon = key.firstIndex(of: ":") else { throw SetupError("not an xfconf key: \(key)") }
        return (String(key[..<colon]), String(key[key.index(after: colon)...]))
    }

    /// Every property of `channel` under `base` with its value (`GetAllProperties`); empty for a
    /// channel that does not exist.
    func xfconfProperties(_ channel: String, under base: String) throws(SetupError) -> [String: DBusValue] {
        do {
            guard case .dictionary(_, _, let entries)? = try xfconf("GetAllProperties", [.string(channel), .string(base)]).first else { return [:] }
            var properties: [String: DBusValue] = [:]
            for entry in entries {
                if case .string(let name) = entry.key { properties[name] = entry.value }
            }
            return properties
        } catch where error.name == "org.xfce.Xfconf.Error.ChannelNotFound" || error.name == "org.xfce.Xfconf.Error.PropertyNotFound" {
            return [:]
        } catch {
            throw SetupError("xfconfd did not answer GetAllProperties(\(channel)): \(error)")
        }
    }

    /// The four parts of a kglobalaccel key (`KDEMediaKeys.key`).
    static func kglobalaccelID(_ key: String) throws(SetupError) -> [String] {
        let id = key.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        guard id.count == 4 else { throw SetupError("not a kglobalaccel action: \(key)") }
        return id
    }

    /// The actions kglobalaccel knows of `component` (`allActionsForComponent`), by action, each
    /// with its four-part id; empty when the component is unknown.
    func kglobalaccelActions(_ component: String) throws(SetupError) -> [String: [String]] {
        do {
            guard case .array(_, let ids)? = try kglobalaccel("allActionsForComponent",
                                                              [.array(element: .string, [.string(component)])]).first else { return [:] }
            var actions: [String: [String]] = [:]
            for id in ids {
                guard case .array(_, let parts) = id else { continue }
                let strings = parts.compactMap { if case .string(let part) = $0 { part } else { nil } }
                if strings.count >= 4 { actions[strings[1]] = Array(strings.prefix(4)) }
            }
            return actions
        } catch {
            throw SetupError("kglobalaccel (KDE's global shortcuts) did not answer: \(error)")
        }
    }

    static let kglobalaccelService = (name: "org.kde.kglobalaccel", path: ObjectPath(trusted: "/kglobalaccel"), interface: "org.kde.KGlobalAccel")

    private func kglobalaccel(_ member: String, _ body: [DBusValue]) throws(DBusError) -> [DBusValue] {
        guard let session else { throw DBusError.failed("no session bus") }
        let call = Message.methodCall(destination: Self.kglobalaccelService.name, path: Self.kglobalaccelService.path,
                                      interface: Self.kglobalaccelService.interface, member: member, body: body)
        return try session.callAndWait(call, timeout: Self.patience).body
    }

    private func xfconf(_ member: String, _ body: [DBusValue]) throws(DBusError) -> [DBusValue] {
        guard let session else { throw DBusError.failed("no session bus") }
        let call = Message.methodCall(destination: Self.xfconfService.name, path: Self.xfconfService.path,
                                      interface: Self.xfconfService.interface, member: member, body: body)
        return try session.callAndWait(call, timeout: Self.patience).body
    }

    private func manager(_ member: String, _ body: [DBusValue]) throws(SetupError) {
        do {
            _ = try managerCall(member, body)
        } catch {
            throw SetupError("the systemd user manager refused \(member): \(error)")
        }
    }

    private func managerCall(_ member: String, _ body: [DBusValue]) throws(DBusError) -> [DBusValue] {
        guard let session else { throw DBusError.failed("no session bus") }
        let call = Message.methodCall(destination: Self.systemd.name, path: Self.systemd.path, interface: Self.systemd.interface,
                                      member: member, body: body)
        return try session.callAndWait(call, timeout: Self.patience).body
    }
}
