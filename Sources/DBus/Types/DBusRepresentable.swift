/// A Swift type with a fixed D-Bus type, convertible both ways.
///
/// Conformances exist for every basic type, arrays, dictionaries and `Variant`; handlers use them to
/// read arguments (`try call.argument(0, as: String.self)`) and to build replies (`"x".dbusValue`).
public protocol DBusRepresentable: Sendable {
    /// The D-Bus type every value of this Swift type has.
    static var dbusType: DBusType { get }
    /// The value as D-Bus data.
    var dbusValue: DBusValue { get }
    /// Reads a value; throws `InvalidArgs` when `value` has another type.
    init(dbusValue value: DBusValue) throws(DBusError)
}

extension DBusRepresentable {
    static func mismatch(_ value: DBusValue) -> DBusError {
        DBusError.invalidArgs("expected '\(dbusType.code)', got '\(value.type.code)'")
    }
}

/// A `v`: any value, with its type travelling alongside.
public struct Variant: DBusRepresentable, Hashable, CustomStringConvertible {
    public var value: DBusValue
    public init(_ value: DBusValue) { self.value = value }
    public init<T: DBusRepresentable>(_ value: T) { self.value = value.dbusValue }
    public static var dbusType: DBusType { .variant }
    public var dbusValue: DBusValue { .variant(value) }
    public init(dbusValue value: DBusValue) throws(DBusError) {
        guard case .variant(let inner) = value else { throw Self.mismatch(value) }
        self.value = inner
    }
    public var description: String { "<\(value)>" }
}


extension UInt8: DBusRepresentable {
    public static var dbusType: DBusType { .byte }
    public var dbusValue: DBusValue { .byte(self) }
    public init(dbusValue value: DBusValue) throws(DBusError) {
        guard case .byte(let v) = value else { throw Self.mismatch(value) }
        self = v
    }
}

extension Bool: DBusRepresentable {
    public static var dbusType: DBusType { .boolean }
    public var dbusValue: DBusValue { .boolean(self) }
    public init(dbusValue value: DBusValue) throws(DBusError) {
        guard case .boolean(let v) = value else { throw Self.mismatch(value) }
        self = v
    }
}

extension Int16: DBusRepresentable {
    public static var dbusType: DBusType { .int16 }
    public var dbusValue: DBusValue { .int16(self) }
    public init(dbusValue value: DBusValue) throws(DBusError) {
        guard case .int16(let v) = value else { throw Self.mismatch(value) }
        self = v
    }
}

extension UInt16: DBusRepresentable {
    public static var dbusType: DBusType { .uint16 }
    public var dbusValue: DBusValue { .uint16(self) }
    public init(dbusValue value: DBusValue) throws(DBusError) {
        guard case .uint16(let v) = value else { throw Self.mismatch(value) }
        self = v
    }
}

extension Int32: DBusRepresentable {
    public static var dbusType: DBusType { .int32 }
    public var dbusValue: DBusValue { .int32(self) }
    public init(dbusValue value: DBusValue) throws(DBusError) {
        guard case .int32(let v) = value else { throw Self.mismatch(value) }
        self = v
    }
}

extension UInt32: DBusRepresentable {
    public static var dbusType: DBusType { .uint32 }
    public var dbusValue: DBusValue { .uint32(self) }
    public init(dbusValue value: DBusValue) throws(DBusError) {
        guard case .uint32(let v) = value else { throw Self.mismatch(value) }
        self = v
    }
}

extension Int64: DBusRepresentable {
    public static var dbusType: DBusType { .int64 }
    public var dbusValue: DBusValue { .int64(self) }
    public init(dbusValue value: DBusValue) throws(DBusError) {
        guard case .int64(let v) = value else { throw Self.mismatch(value) }
        self = v
    }
}

extension UInt64: DBusRepresentable {
    public static var dbusType: DBusType { .uint64 }
    public var dbusValue: DBusValue { .uint64(self) }
    public init(dbusValue value: DBusValue) throws(DBusError) {
        guard case .uint64(let v) = value else { throw Self.mismatch(value) }
        self = v
    }
}

extension Double: DBusRepresentable {
    public static var dbusType: DBusType { .double }
    public var dbusValue: DBusValue { .double(self) }
    public init(dbusValue value: DBusValue) throws(DBusError) {
        guard case .double(let v) = value else { throw Self.mismatch(value) }
        self = v
    }
}

extension String: DBusRepresentable {
    public static var dbusType: DBusType { .string }
    public var dbusValue: DBusValue { .string(self) }
    public init(dbusValue value: DBusValue) throws(DBusError) {
        guard case .string(let v) = value else { throw Self.mismatch(value) }
        self = v
    }
}

extension ObjectPath: DBusRepresentable {
    public static var dbusType: DBusType { .objectPath }
    public var dbusValue: DBusValue { .objectPath(self) }
    public init(dbusValue value: DBusValue) throws(DBusError) {
        guard case .objectPath(let v) = value else { throw Self.mismatch(value) }
        self = v
    }
}

extension Signature: DBusRepresentable {
    public static var dbusType: DBusType { .signature }
    public var dbusValue: DBusValue { .signature(self) }
    public init(dbusValue value: DBusValue) throws(DBusError) {
        guard case .signature(let v) = value else { throw Self.mismatch(value) }
        self = v
    }
}

extension UnixFD: DBusRepresentable {
    public static var dbusType: DBusType { .unixFD }
    public var dbusValue: DBusValue { .unixFD(self) }
    public convenience init(dbusValue value: DBusValue) throws(DBusError) {
        guard case .unixFD(let v) = value else { throw Self.mismatch(value) }
        try self.init(duplicating: v.fileDescriptor)
    }
}

extension Array: DBusRepresentable where Element: DBusRepresentable {
    public static var dbusType: DBusType { .array(Element.dbusType) }
    public var dbusValue: DBusValue { .array(element: Element.dbusType, map(\.dbusValue)) }
    public init(dbusValue value: DBusValue) throws(DBusError) {
        guard case .array(let element, let items) = value, element == Element.dbusType else {
            throw Self.mismatch(value)
        }
        var result: [Element] = []
        result.reserveCapacity(items.count)
        for item in items { result.append(try Element(dbusValue: item)) }
        self = result
    }
}

extension Dictionary: DBusRepresentable where Key: DBusRepresentable, Value: DBusRepresentable {
    public static var dbusType: DBusType { .dictionary(key: Key.dbusType, value: Value.dbusType) }
    public var dbusValue: DBusValue {
        .dictionary(key: Key.dbusType, value: Value.dbusType,
                    map { DictionaryEntry($0.key.dbusValue, $0.value.dbusValue) })
    }
    public init(dbusValue value: DBusValue) throws(DBusError) {
        guard case .dictionary(let k, let v, let entries) = value,
              k == Key.dbusType, v == Value.dbusType else { throw Self.mismatch(value) }
        var result: [Key: Value] = [:]
        result.reserveCapacity(entries.count)
        for entry in entries {
            result[try Key(dbusValue: entry.key)] = try Value(dbusValue: entry.value)
        }
        self = result
    }
}
