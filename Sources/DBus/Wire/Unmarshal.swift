import CDBus

/// Reads the values of a received libdbus message (`dbus_message_iter_get_*`).
///
/// libdbus validated the message on receipt, so the types seen here are well formed; the readers
/// still never trap on a surprise, they skip it.
enum Unmarshal {
    /// Reads every value from `iter` to its end.
    static func readAll(_ iter: inout DBusMessageIter) -> [DBusValue] {
        var values: [DBusValue] = []
        values.reserveCapacity(4)  // most bodies are short: one allocation, not one per growth
        while true {
            let type = dbus_message_iter_get_arg_type(&iter)
            if type == CDBUS_TYPE_INVALID { break }
            if let value = read(&iter, type: type) { values.append(value) }
            if dbus_message_iter_next(&iter) == 0 { break }
        }
        return values
    }

    private static func read(_ iter: inout DBusMessageIter, type: Int32) -> DBusValue? {
        switch type {
        case CDBUS_TYPE_BYTE: return .byte(basic(&iter, 0))
        case CDBUS_TYPE_BOOLEAN: return .boolean(basic(&iter, dbus_bool_t(0)) != 0)
        case CDBUS_TYPE_INT16: return .int16(basic(&iter, 0))
        case CDBUS_TYPE_UINT16: return .uint16(basic(&iter, 0))
        case CDBUS_TYPE_INT32: return .int32(basic(&iter, 0))
        case CDBUS_TYPE_UINT32: return .uint32(basic(&iter, 0))
        case CDBUS_TYPE_INT64: return .int64(basic(&iter, 0))
        case CDBUS_TYPE_UINT64: return .uint64(basic(&iter, 0))
        case CDBUS_TYPE_DOUBLE: return .double(basic(&iter, 0.0))
        case CDBUS_TYPE_STRING: return .string(string(&iter))
        case CDBUS_TYPE_OBJECT_PATH: return .objectPath(ObjectPath(validated: string(&iter)))
        case CDBUS_TYPE_SIGNATURE:
            return (try? Signature(parsing: string(&iter))).map { .signature($0) }
        case CDBUS_TYPE_UNIX_FD:
            // libdbus hands out a duplicate that the reader owns.
            let fd: Int32 = basic(&iter, -1)
            return (try? UnixFD(takingOwnershipOf: fd)).map { .unixFD($0) }
        case CDBUS_TYPE_ARRAY: return readArray(&iter)
        case CDBUS_TYPE_STRUCT:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return .struct(readAll(&sub))
        case CDBUS_TYPE_VARIANT:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            let innerType = dbus_message_iter_get_arg_type(&sub)
            return read(&sub, type: innerType).map { .variant($0) }
        default:
            return nil
        }
    }

    private static func basic<T>(_ iter: inout DBusMessageIter, _ initial: T) -> T {
        var value = initial
        withUnsafeMutablePointer(to: &value) { dbus_message_iter_get_basic(&iter, $0) }
        return value
    }

    private static func string(_ iter: inout DBusMessageIter) -> String {
        var pointer: UnsafePointer<CChar>?
        dbus_message_iter_get_basic(&iter, &pointer)
        return pointer.map { String(cString: $0) } ?? ""
    }

    private static func readArray(_ iter: inout DBusMessageIter) -> DBusValue? {
        guard let raw = dbus_message_iter_get_signature(&iter) else { return nil }
        defer { dbus_free(raw) }
        guard let types = try? Signature(parsing: String(cString: raw)).types, types.count == 1 else {
            return nil
        }
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &sub)
        switch types[0] {
        case .array(.byte):
            var base: UnsafePointer<UInt8>?
            var count: Int32 = 0
            dbus_message_iter_get_fixed_array(&sub, &base, &count)
            guard let base, count > 0 else { return .array(element: .byte, []) }
            let bytes = UnsafeBufferPointer(start: base, count: Int(count))
            return .array(element: .byte, bytes.map { .byte($0) })
        case .array(let element):
            return .array(element: element, readAll(&sub))
        case .dictionary(let key, let value):
            var entries: [DictionaryEntry] = []
            while dbus_message_iter_get_arg_type(&sub) == CDBUS_TYPE_DICT_ENTRY {
                var pair = DBusMessageIter()
                dbus_message_iter_recurse(&sub, &pair)
                let kv = readAll(&pair)
                if kv.count == 2 { entries.append(DictionaryEntry(kv[0], kv[1])) }
                if dbus_message_iter_next(&sub) == 0 { break }
            }
            return .dictionary(key: key, value: value, entries)
        default:
            return nil
        }
    }
}
