/// A D-Bus value that always knows its exact type.
///
/// Containers carry their element types, so an empty `as` stays `as` (not `ay`, not `av`) and an
/// empty `a{sv}` stays `a{sv}`: the type of a value never depends on its contents.
public indirect enum DBusValue: Sendable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(ObjectPath)
    case signature(Signature)
    case unixFD(UnixFD)
    /// An array of values of type `element`.
    case array(element: DBusType, [DBusValue])
    /// A dictionary in wire order; keys are of the basic type `key`. Equality ignores order.
    case dictionary(key: DBusType, value: DBusType, [DictionaryEntry])
    /// A struct; at least one field.
    case `struct`([DBusValue])
    /// A variant: any single value with its type on the wire.
    case variant(DBusValue)

    /// The exact D-Bus type of this value.
    public var type: DBusType {
        switch self {
        case .byte: .byte
        case .boolean: .boolean
        case .int16: .int16
        case .uint16: .uint16
        case .int32: .int32
        case .uint32: .uint32
        case .int64: .int64
        case .uint64: .uint64
        case .double: .double
        case .string: .string
        case .objectPath: .objectPath
        case .signature: .signature
        case .unixFD: .unixFD
        case .array(let element, _): .array(element)
        case .dictionary(let key, let value, _): .dictionary(key: key, value: value)
        case .struct(let fields): .struct(fields.map(\.type))
        case .variant: .variant
        }
    }
}

extension DBusValue {
    /// Whether the value is of `type` — `type == expected` without building the value's type
    /// (which allocates for containers): the check every property read and reply makes.
    public func hasType(_ expected: DBusType) -> Bool {
        switch (self, expected) {
        case (.byte, .byte), (.boolean, .boolean), (.int16, .int16), (.uint16, .uint16), (.int32, .int32),
             (.uint32, .uint32), (.int64, .int64), (.uint64, .uint64), (.double, .double), (.string, .string),
             (.objectPath, .objectPath), (.signature, .signature), (.unixFD, .unixFD), (.variant, .variant):
            true
        case (.array(let element, _), .array(let expectedElement)): element == expectedElement
        case (.dictionary(let key, let value, _), .dictionary(let expectedKey, let expectedValue)):
            key == expectedKey && value == expectedValue
        case (.struct(let fields), .struct(let types)):
            fields.count == types.count && zip(fields, types).allSatisfy { $0.hasType($1) }
        default: false
        }
    }

    /// The length of the value's signature, without building its type.
    var signatureLength: Int {
        switch self {
        case .array(let element, _): 1 + element.codeLength
        case .dictionary(let key, let value, _): 3 + key.codeLength + value.codeLength
        case .struct(let fields): 2 + fields.reduce(0) { $0 + $1.signatureLength }
        default: 1
        }
    }
}

/// One key/value pair of a `DBusValue.dictionary`.
public struct DictionaryEntry: Sendable, Hashable {
    public var key: DBusValue
    public var value: DBusValue

    public init(_ key: DBusValue, _ value: DBusValue) {
        self.key = key
        self.value = value
    }
}

extension DBusValue: Hashable {
    /// Structural equality. Doubles compare by bit pattern (so a NaN equals itself and a property
    /// holding NaN is not reported as changed on every read); dictionaries compare as sets of entries.
    public static func == (lhs: DBusValue, rhs: DBusValue) -> Bool {
        switch (lhs, rhs) {
        case let (.byte(a), .byte(b)): a == b
        case let (.boolean(a), .boolean(b)): a == b
        case let (.int16(a), .int16(b)): a == b
        case let (.uint16(a), .uint16(b)): a == b
        case let (.int32(a), .int32(b)): a == b
        case let (.uint32(a), .uint32(b)): a == b
        case let (.int64(a), .int64(b)): a == b
        case let (.uint64(a), .uint64(b)): a == b
        case let (.double(a), .double(b)): a.bitPattern == b.bitPattern
        case let (.string(a), .string(b)): a == b
        case let (.objectPath(a), .objectPath(b)): a == b
        case let (.signature(a), .signature(b)): a == b
        case let (.unixFD(a), .unixFD(b)): a == b
        case let (.array(t1, a), .array(t2, b)): t1 == t2 && a == b
        case let (.dictionary(k1, v1, a), .dictionary(k2, v2, b)):
            k1 == k2 && v1 == v2 && a.count == b.count && Set(a) == Set(b)
        case let (.struct(a), .struct(b)): a == b
        case let (.variant(a), .variant(b)): a == b
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .byte(let v): hasher.combine(v)
        case .boolean(let v): hasher.combine(v)
        case .int16(let v): hasher.combine(v)
        case .uint16(let v): hasher.combine(v)
        case .int32(let v): hasher.combine(v)
        case .uint32(let v): hasher.combine(v)
        case .int64(let v): hasher.combine(v)
        case .uint64(let v): hasher.combine(v)
        case .double(let v): hasher.combine(v.bitPattern)
        case .string(let v): hasher.combine(v)
        case .objectPath(let v): hasher.combine(v)
        case .signature(let v): hasher.combine(v)
        case .unixFD(let v): hasher.combine(v)
        case .array(let t, let v):
            hasher.combine(t)
            hasher.combine(v)
        case .dictionary(let k, let v, let entries):
            hasher.combine(k)
            hasher.combine(v)
            // Order-independent, to agree with ==.
            hasher.combine(entries.reduce(0) { $0 ^ $1.hashValue })
        case .struct(let v): hasher.combine(v)
        case .variant(let v): hasher.combine(v)
        }
        hasher.combine(type.code)
    }
}

extension DBusValue: CustomStringConvertible {
    /// A compact, GVariant-like text form for logs and test failures.
    public var description: String {
        switch self {
        case .byte(let v): "byte \(v)"
        case .boolean(let v): "\(v)"
        case .int16(let v): "int16 \(v)"
        case .uint16(let v): "uint16 \(v)"
        case .int32(let v): "\(v)"
        case .uint32(let v): "uint32 \(v)"
        case .int64(let v): "int64 \(v)"
        case .uint64(let v): "uint64 \(v)"
        case .double(let v): "\(v)"
        case .string(let v): "'\(v)'"
        case .objectPath(let v): "objectpath '\(v)'"
        case .signature(let v): "signature '\(v)'"
        case .unixFD(let v): "handle \(v.fileDescriptor)"
        case .array(let t, let v): v.isEmpty ? "@a\(t.code) []" : "[" + v.map(\.description).joined(separator: ", ") + "]"
        case .dictionary(let k, let v, let entries):
            entries.isEmpty ? "@a{\(k.code)\(v.code)} {}"
                : "{" + entries.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        case .struct(let v): "(" + v.map(\.description).joined(separator: ", ") + ")"
        case .variant(let v): "<\(v)>"
        }
    }
}
