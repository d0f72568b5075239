import DBus

/// Reads the bodies of logind's replies and signals into plain Swift values.
///
/// What arrives is outside input: a body of the wrong shape decodes to nil (or skips the entry),
/// never traps; the lock monitor then treats it as "no session", i.e. not locked.
enum LogindDecoding {
    /// One row of `ListSessions`: `(susso)` id, uid, user name, seat id, object path.
    struct SessionRow: Equatable, Sendable {
        var id: String
        var uid: UInt32
        var seat: String
        var path: ObjectPath
    }

    /// The first argument as an object path (`GetUser`, `GetSession` replies).
    static func objectPath(_ body: [DBusValue]) -> ObjectPath? {
        guard case .objectPath(let path)? = body.first else { return nil }
        return path
    }

    /// A `Properties.Get` reply's value, the variant unwrapped.
    static func propertyValue(_ body: [DBusValue]) -> DBusValue? {
        guard let first = body.first else { return nil }
        if case .variant(let inner) = first { return inner }
        return first
    }

    /// The session path of a user's `Display` value `(so)`; nil for none (`/`) or a malformed value.
    static func displaySession(_ value: DBusValue) -> ObjectPath? {
        guard case .struct(let fields) = value, fields.count == 2, case .objectPath(let path) = fields[1],
              path != .root else { return nil }
        return path
    }

    /// A boolean property value.
    static func bool(_ value: DBusValue?) -> Bool? {
        guard case .boolean(let flag)? = value else { return nil }
        return flag
    }

    /// The `ListSessions` reply `a(susso)`; malformed rows are skipped.
    static func sessions(_ body: [DBusValue]) -> [SessionRow]? {
        guard case .array(_, let rows)? = body.first else { return nil }
        return rows.compactMap { row in
            guard case .struct(let fields) = row, fields.count == 5, case .string(let id) = fields[0],
                  case .uint32(let uid) = fields[1], case .string(let seat) = fields[3],
                  case .objectPath(let path) = fields[4] else { return nil }
            return SessionRow(id: id, uid: uid, seat: seat, path: path)
        }
    }

    /// `PropertiesChanged(s interface, a{sv} changed, as invalidated)`, variants unwrapped.
    static func propertiesChanged(_ body: [DBusValue])
        -> (interface: String, changed: [String: DBusValue], invalidated: [String])? {
        guard body.count >= 2, case .string(let interface) = body[0],
              case .dictionary(_, _, let entries) = body[1] else { return nil }
        var changed: [String: DBusValue] = [:]
        for entry in entries {
            guard case .string(let name) = entry.key else { continue }
            if case .variant(let inner) = entry.value { changed[name] = inner } else { changed[name] = entry.value }
        }
        var invalidated: [String] = []
        if body.count >= 3, case .array(_, let names) = body[2] {
            invalidated = names.compactMap {
                if case .string(let name) = $0 { return name }
                return nil
            }
        }
        return (interface, changed, invalidated)
    }

    /// `SessionNew`/`SessionRemoved(s id, o path)`: the path.
    static func sessionSignalPath(_ body: [DBusValue]) -> ObjectPath? {
        guard body.count >= 2, case .objectPath(let path) = body[1] else { return nil }
        return path
    }

    /// `PrepareForSleep(b start)`: whether the system is going to sleep (false: it woke up).
    static func prepareForSleep(_ body: [DBusValue]) -> Bool? {
        bool(body.first)
    }
}
