import CDBus

/// Appends validated `DBusValue`s to a libdbus message iterator (`dbus_message_iter_append_*`).
enum Marshal {
    static func append(_ value: DBusValue, to iter: inout DBusMessageIter) throws(DBusError) {
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
        case .string(let s): ok = appendString(s, type: CDBUS_TYPE_STRING, to: &iter)
        case .objectPath(let p): ok = appendString(p.rawValue, type: CDBUS_TYPE_OBJECT_PATH, to: &iter)
        case .signature(let g): ok = appendString(g.code, type: CDBUS_TYPE_SIGNATURE, to: &iter)
        case .unixFD(let fd):
            var v = fd.fileDescriptor
            ok = dbus_message_iter_append_basic(&iter, CDBUS_TYPE_UNIX_FD, &v) != 0
        case .array(let element, let items):
            if element == .byte {
                ok = appendBytes(items, to: &iter)
            } else {
                try container(CDBUS_TYPE_ARRAY, element.code, in: &iter) { (sub) throws(DBusError) in
                    for item in items { try append(item, to: &sub) }
                }
                return
            }
        case .dictionary(let key, let valueType, let entries):
            // a{sv} (every Properties reply, MPRIS Metadata) without building the string.
            let entrySignature = key == .string && valueType == .variant ? "{sv}" : "{" + key.code + valueType.code + "}"
            try container(CDBUS_TYPE_ARRAY, entrySignature, in: &iter) { (sub) throws(DBusError) in
                for entry in entries {
                    try container(CDBUS_TYPE_DICT_ENTRY, nil, in: &sub) { (pair) throws(DBusError) in
                        try append(entry.key, to: &pair)
                        try append(entry.value, to: &pair)
                    }
                }
            }
            return
        case .struct(let fields):
            try container(CDBUS_TYPE_STRUCT, nil, in: &iter) { (sub) throws(DBusError) in
                for field in fields { try append(field, to: &sub) }
            }
            return
        case .variant(let inner):
            if let code = inner.basicSignature {
                // The common case (a property value): a static signature, no type or string built.
                var sub = DBusMessageIter()
                guard dbus_message_iter_open_container(&iter, CDBUS_TYPE_VARIANT, code, &sub) != 0 else { throw outOfMemory }
                do {
                    try append(inner, to: &sub)
                } catch {
                    dbus_message_iter_abandon_container(&iter, &sub)
                    throw error
                }
                guard dbus_message_iter_close_container(&iter, &sub) != 0 else { throw outOfMemory }
                return
            }
            try container(CDBUS_TYPE_VARIANT, inner.type.code, in: &iter) { (sub) throws(DBusError) in
                try append(inner, to: &sub)
            }
            return
        }
        guard ok else { throw outOfMemory }
    }

    private static let outOfMemory = DBusError(DBusError.Name.noMemory, "libdbus could not append a value")

    private static func appendString(_ text: String, type: Int32, to iter: inout DBusMessageIter) -> Bool {
        text.withCString { pointer in
            var p: UnsafePointer<CChar>? = pointer
            return dbus_message_iter_append_basic(&iter, type, &p) != 0
        }
    }

    /// `ay` in one copy (`dbus_message_iter_append_fixed_array`).
    private static func appendBytes(_ items: [DBusValue], to iter: inout DBusMessageIter) -> Bool {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(items.count)
        for item in items { if case .byte(let b) = item { bytes.append(b) } }
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
    private static func container(_ type: Int32, _ signature: String?, in iter: inout DBusMessageIter,
                                  _ fill: (inout DBusMessageIter) throws(DBusError) -> Void) throws(DBusError) {
        var sub = DBusMessageIter()
        let opened: Bool
        if let signature {
            opened = signature.withCString { dbus_message_iter_open_container(&iter, type, $0, &sub) != 0 }
        } else {
            opened = dbus_message_iter_open_container(&iter, type, nil, &sub) != 0
        }
        guard opened else { throw outOfMemory }
        do {
            try fill(&sub)
        } catch {
            dbus_message_iter_abandon_container(&iter, &sub)
            throw error
        }
        guard dbus_message_iter_close_container(&iter, &sub) != 0 else { throw outOfMemory }
    }
}

extension DBusValue {
    /// The signature of a basic value as a C string that lives forever; nil for containers.
    var basicSignature: UnsafePointer<CChar>? {
        let code: StaticString
        switch self {
        case .byte: code = "y"
        case .boolean: code = "b"
        case .int16: code = "n"
        case .uint16: code = "q"
        case .int32: code = "i"
        case .uint32: code = "u"
        case .int64: code = "x"
        case .uint64: code = "t"
        case .double: code = "d"
        case .string: code = "s"
        case .objectPath: code = "o"
        case .signature: code = "g"
        case .unixFD: code = "h"
        case .array, .dictionary, .struct, .variant: return nil
        }
        return UnsafeRawPointer(code.utf8Start).assumingMemoryBound(to: CChar.self)
    }
}
