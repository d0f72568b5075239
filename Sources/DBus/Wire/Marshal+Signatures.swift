import CDBus

/// Signatures handed to `dbus_message_iter_open_container`, as C strings.
///
/// Every variant and array in a message needs its contained signature. Building it from the type
/// means a `String` (and, for containers, a `DBusType`) per value; the types that replies carry
/// nearly always — basic values, `as`, `ao`, `a{sv}` — have static strings instead, and only the
/// rest is built.
extension DBusType {
    /// Runs `body` with the type's signature as a C string.
    func withSignature<R>(_ body: (UnsafePointer<CChar>) throws(DBusError) -> R) throws(DBusError) -> R {
        if let text = Self.staticSignature(of: self) { return try body(text.cString) }
        return try Self.withBuilt(code, body)
    }

    /// Runs `body` with the signature of one entry of an `a{KV}` dictionary (`{KV}`).
    static func withEntrySignature<R>(_ key: DBusType, _ value: DBusType,
                                      _ body: (UnsafePointer<CChar>) throws(DBusError) -> R) throws(DBusError) -> R {
        switch (key, value) {
        case (.string, .variant): return try body(("{sv}" as StaticString).cString)
        case (.string, .string): return try body(("{ss}" as StaticString).cString)
        default: return try withBuilt("{" + key.code + value.code + "}", checkedAs: "a{" + key.code + value.code + "}", body)
        }
    }

    /// The static signature of a common type; nil for the rest.
    static func staticSignature(of type: DBusType) -> StaticString? {
        switch type {
        case .array(let element): arraySignature(of: element)
        case .dictionary(let key, let value): dictionarySignature(key, value)
        case .struct: nil
        default: basicSignature(of: type)
        }
    }

    static func basicSignature(of type: DBusType) -> StaticString? {
        switch type {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .variant: "v"
        case .array, .dictionary, .struct: nil
        }
    }

    /// `aT` for a basic or variant `T`, and `aa{sv}`.
    static func arraySignature(of element: DBusType) -> StaticString? {
        switch element {
        case .byte: "ay"
        case .boolean: "ab"
        case .int16: "an"
        case .uint16: "aq"
        case .int32: "ai"
        case .uint32: "au"
        case .int64: "ax"
        case .uint64: "at"
        case .double: "ad"
        case .string: "as"
        case .objectPath: "ao"
        case .signature: "ag"
        case .unixFD: "ah"
        case .variant: "av"
        case .dictionary(.string, .variant): "aa{sv}"
        case .array, .dictionary, .struct: nil
        }
    }

    static func dictionarySignature(_ key: DBusType, _ value: DBusType) -> StaticString? {
        switch (key, value) {
        case (.string, .variant): "a{sv}"
        case (.string, .string): "a{ss}"
        case (.objectPath, .dictionary(.string, .dictionary(.string, .variant))): "a{oa{sa{sv}}}"
        default: nil
        }
    }

    /// Runs `body` with a built signature, once libdbus agrees it is one complete type
    /// (`dbus_signature_validate_single`): a struct without fields, a container key or nesting
    /// beyond the limits would otherwise reach `dbus_message_iter_open_container`, which aborts
    /// on an invalid signature instead of failing. `checked` is the type to validate when `code`
    /// is not one by itself (a dict entry).
    private static func withBuilt<R>(_ code: String, checkedAs checked: String? = nil,
                                     _ body: (UnsafePointer<CChar>) throws(DBusError) -> R) throws(DBusError) -> R {
        guard dbus_signature_validate_single(checked ?? code, nil) != 0 else {
            throw DBusError.invalidArgs("'\(checked ?? code)' is not a valid D-Bus type")
        }
        let result = code.withCString { text in
            Result { () throws(DBusError) -> R in try body(text) }
        }
        return try result.get()
    }
}

extension DBusValue {
    /// Runs `body` with the signature of the value's type, without building the type when it is a
    /// common one (a variant's contents).
    func withSignature<R>(_ body: (UnsafePointer<CChar>) throws(DBusError) -> R) throws(DBusError) -> R {
        let text: StaticString? = switch self {
        case .array(let element, _): DBusType.arraySignature(of: element)
        case .dictionary(let key, let value, _): DBusType.dictionarySignature(key, value)
        case .struct: nil
        // A basic value's (or a variant's) type is built without allocating.
        default: DBusType.basicSignature(of: type)
        }
        if let text { return try body(text.cString) }
        return try type.withSignature(body)
    }
}

extension StaticString {
    /// The text as a C string; static strings are NUL-terminated and live forever.
    var cString: UnsafePointer<CChar> {
        UnsafeRawPointer(utf8Start).assumingMemoryBound(to: CChar.self)
    }
}
