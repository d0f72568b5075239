import CDBus
#if canImport(Glibc)
import Glibc
#endif

/// Appends `DBusValue`s to a libdbus message iterator (`dbus_message_iter_append_*`), checking
/// each value on the way: container elements of the declared type, no NUL in strings, no empty
/// struct, nesting within the specification's limit.
///
/// The checks are `DBusValue.validate()`'s, done in the same walk as the marshalling so that a
/// reply visits its values once (a `GetAll` reply has some forty of them). A value that fails
/// throws `InvalidArgs`; the caller discards the half-built message.
enum Marshal {
    static func append(_ value: DBusValue, to iter: inout DBusMessageIter) throws(DBusError) {
        try append(value, to: &iter, depth: 0)
    }

    fileprivate static func append(_ value: DBusValue, to iter: inout DBusMessageIter, depth: Int) throws(DBusError) {
        let ok: Bool
        switch value {
        case .byte(var v): ok = dbus_message_iter_append_basic(&iter, CDBUS_TYPE_BYTE, &v) != 0
        case .boolean(let b):
            var v: dbus_bool_t = b ? 1 : 0
            ok = dbus_message_iter_append_basic(&iter, CDBUS_TYPE_BOOLEAN, &v) != 0
        case .int16(var v): ok = dbus_message_iter_append_basic(&iter, CDBUS_TYPE_INT16, &v) != 0
        case .uint16(var v): ok = dbus_message_iter_append_basic(&iter, CDBUS_TYPE_UINT16, &v) != 0
        case .int32(var v): ok = dbus_message_iter_append_basic(&iter, CDBUS_TYPE_INT32, &v) != 0
        case .uint32(var v): ok = dbus_message_iter_append_basic(&iter, CDBUS_TYPE_UINT32, &v) != 0
        case .int64(var v): ok = dbus_message_iter_append_basic(&iter, CDBUS_TYPE_INT64, &v) != 0
        case .uint64(var v): ok = dbus_message_iter_append_basic(&iter, CDBUS_TYPE_UINT64, &v) != 0
        case .double(var v): ok = dbus_message_iter_append_basic(&iter, CDBUS_TYPE_DOUBLE, &v) != 0
        case .string(let s): ok = try appendString(s, to: &iter)
        // Object paths and signatures are checked when they are made.
        case .objectPath(let p): ok = appendTrusted(p.rawValue, type: CDBUS_TYPE_OBJECT_PATH, to: &iter)
        case .signature(let g): ok = appendTrusted(g.code, type: CDBUS_TYPE_SIGNATURE, to: &iter)
        case .unixFD(let fd):
            var v = fd.fileDescriptor
            ok = dbus_message_iter_append_basic(&iter, CDBUS_TYPE_UNIX_FD, &v) != 0
        case .array(let element, let items):
            try checkDepth(depth)
            if element == .byte {
                ok = try appendBytes(items, to: &iter)
                break
            }
            try element.withSignature { (signature) throws(DBusError) in
                try container(CDBUS_TYPE_ARRAY, signature, in: &iter) { (sub) throws(DBusError) in
                    for item in items {
                        guard item.hasType(element) else {
                            throw DBusError.invalidArgs("array of '\(element.code)' holds a '\(item.type.code)'")
                        }
                        try append(item, to: &sub, depth: depth + 1)
                    }
                }
            }
            return
        case .dictionary(let key, let valueType, let entries):
            try checkDepth(depth)
            guard key.isBasic else {
                throw DBusError.invalidArgs("dictionary key type '\(key.code)' is not basic")
            }
            try DBusType.withEntrySignature(key, valueType) { (signature) throws(DBusError) in
                try container(CDBUS_TYPE_ARRAY, signature, in: &iter) { (sub) throws(DBusError) in
                    for entry in entries {
                        guard entry.key.hasType(key), entry.value.hasType(valueType) else {
                            throw DBusError.invalidArgs(
                                "dictionary 'a{\(key.code)\(valueType.code)}' holds a '\(entry.key.type.code)' → '\(entry.value.type.code)' entry")
                        }
                        try container(CDBUS_TYPE_DICT_ENTRY, nil, in: &sub) { (pair) throws(DBusError) in
                            try append(entry.key, to: &pair, depth: depth + 1)
                            try append(entry.value, to: &pair, depth: depth + 1)
                        }
                    }
                }
            }
            return
        case .struct(let fields):
            try checkDepth(depth)
            guard !fields.isEmpty else { throw DBusError.invalidArgs("a struct needs at least one field") }
            try container(CDBUS_TYPE_STRUCT, nil, in: &iter) { (sub) throws(DBusError) in
                for field in fields { try append(field, to: &sub, depth: depth + 1) }
            }
            return
        case .variant(let inner):
            try checkDepth(depth)
            try inner.withSignature { (signature) throws(DBusError) in
                try container(CDBUS_TYPE_VARIANT, signature, in: &iter) { (sub) throws(DBusError) in
                    try append(inner, to: &sub, depth: depth + 1)
                }
            }
            return
        }
        guard ok else { throw outOfMemory }
    }

    fileprivate static let outOfMemory = DBusError(DBusError.Name.noMemory, "libdbus could not append a value")

    private static func checkDepth(_ depth: Int) throws(DBusError) {
        guard depth < DBusValue.maximumNesting else {
            throw DBusError.invalidArgs("value nests containers deeper than \(DBusValue.maximumNesting)")
        }
    }

    /// A D-Bus string: a NUL inside would silently cut it short in C, so it is refused.
    fileprivate static func appendString(_ text: String, to iter: inout DBusMessageIter) throws(DBusError) -> Bool {
        let length = text.utf8.count
        let result: Bool? = text.withCString { pointer in
            guard strlen(pointer) == length else { return nil }
            var p: UnsafePointer<CChar>? = pointer
            return dbus_message_iter_append_basic(&iter, CDBUS_TYPE_STRING, &p) != 0
        }
        guard let result else { throw DBusError.invalidArgs("a D-Bus string must not contain NUL") }
        return result
    }

    private static func appendTrusted(_ text: String, type: Int32, to iter: inout DBusMessageIter) -> Bool {
        text.withCString { pointer in
            var p: UnsafePointer<CChar>? = pointer
            return dbus_message_iter_append_basic(&iter, type, &p) != 0
        }
    }

    /// `ay` in one copy (`dbus_message_iter_append_fixed_array`).
    private static func appendBytes(_ items: [DBusValue], to iter: inout DBusMessageIter) throws(DBusError) -> Bool {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(items.count)
        for item in items {
            guard case .byte(let b) = item else {
                throw DBusError.invalidArgs("array of 'y' holds a '\(item.type.code)'")
            }
            bytes.append(b)
        }
        var sub = DBusMessageIter()
        guard dbus_message_iter_open_container(&iter, CDBUS_TYPE_ARRAY, "y", &sub) != 0 else { return false }
        let appended = bytes.withUnsafeBufferPointer { buffer in
            var base: UnsafePointer<UInt8>? = buffer.baseAddress
            return dbus_message_iter_append_fixed_array(&sub, CDBUS_TYPE_BYTE, &base, Int32(buffer.count)) != 0
        }
        guard appended else {
            dbus_message_iter_abandon_container(&iter, &sub)
            return false
        }
        return dbus_message_iter_close_container(&iter, &sub) != 0
    }

    /// Opens a container, fills it, and closes it, abandoning it if filling throws.
    fileprivate static func container(_ type: Int32, _ signature: UnsafePointer<CChar>?, in iter: inout DBusMessageIter,
                                  _ fill: (inout DBusMessageIter) throws(DBusError) -> Void) throws(DBusError) {
        var sub = DBusMessageIter()
        guard dbus_message_iter_open_container(&iter, type, signature, &sub) != 0 else { throw outOfMemory }
        do {
            try fill(&sub)
        } catch {
            dbus_message_iter_abandon_container(&iter, &sub)
            throw error
        }
        guard dbus_message_iter_close_container(&iter, &sub) != 0 else { throw outOfMemory }
    }
}

extension Marshal {
    /// Appends `value` as a variant: `append(.variant(value))` without wrapping the value in the
    /// indirect `.variant` case first (an allocation and a release per `Get` reply).
    static func appendVariant(_ value: DBusValue, to iter: inout DBusMessageIter) throws(DBusError) {
        try value.withSignature { (signature) throws(DBusError) in
            try container(CDBUS_TYPE_VARIANT, signature, in: &iter) { (sub) throws(DBusError) in
                try append(value, to: &sub, depth: 1)
            }
        }
    }

    /// Writes an `a{sv}` entry by entry, without building the dictionary as a value first: the
    /// body of every `GetAll` reply.
    static func appendVariantMap(to iter: inout DBusMessageIter,
                                 _ fill: (inout VariantMapWriter) throws(DBusError) -> Void) throws(DBusError) {
        try container(CDBUS_TYPE_ARRAY, ("{sv}" as StaticString).cString, in: &iter) { (sub) throws(DBusError) in
            try withUnsafeMutablePointer(to: &sub) { (pointer) throws(DBusError) in
                var writer = VariantMapWriter(iter: pointer)
                try fill(&writer)
            }
        }
    }

    /// Appends the entries of an `a{sv}` being written by `appendVariantMap`; lives only inside it.
    struct VariantMapWriter {
        fileprivate let iter: UnsafeMutablePointer<DBusMessageIter>

        /// One `{name: <value>}` entry, the value checked as `append` checks it.
        mutating func append(_ name: String, _ value: DBusValue) throws(DBusError) {
            try Marshal.container(CDBUS_TYPE_DICT_ENTRY, nil, in: &iter.pointee) { (pair) throws(DBusError) in
                guard try Marshal.appendString(name, to: &pair) else { throw Marshal.outOfMemory }
                try value.withSignature { (signature) throws(DBusError) in
                    try Marshal.container(CDBUS_TYPE_VARIANT, signature, in: &pair) { (variant) throws(DBusError) in
                        try Marshal.append(value, to: &variant, depth: 2)
                    }
                }
            }
        }
    }
}
