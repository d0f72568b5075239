/// One complete D-Bus type: what a single signature element describes.
///
/// Described as data rather than as a string so that interfaces can be declared without parsing and
/// without a way to spell an invalid type. `Signature` parses and prints the string form.
public indirect enum DBusType: Hashable, Sendable {
    case byte, boolean, int16, uint16, int32, uint32, int64, uint64, double
    case string, objectPath, signature, unixFD
    case variant
    /// `aT`: an array whose elements all have the given type.
    case array(DBusType)
    /// `a{KV}`: a dictionary; the key must be a basic type.
    case dictionary(key: DBusType, value: DBusType)
    /// `(…)`: a struct with at least one field.
    case `struct`([DBusType])

    /// The type's signature string (`a{sv}`, `(ii)`, …).
    public var code: String {
        switch self {
        case .array(let element): "a" + element.code
        case .dictionary(let key, let value): "a{" + key.code + value.code + "}"
        case .struct(let fields): "(" + fields.map(\.code).joined() + ")"
        // The one table of type codes: `Marshal`'s static signatures.
        default: Self.basicSignature(of: self).map { "\($0)" } ?? ""
        }
    }

    /// The length of `code`, computed without building the string.
    public var codeLength: Int {
        switch self {
        case .array(let element): 1 + element.codeLength
        case .dictionary(let key, let value): 3 + key.codeLength + value.codeLength
        case .struct(let fields): 2 + fields.reduce(0) { $0 + $1.codeLength }
        default: 1
        }
    }

    /// Basic types: the only ones allowed as dictionary keys.
    public var isBasic: Bool {
        switch self {
        case .variant, .array, .dictionary, .struct: false
        default: true
        }
    }
}

extension DBusType: CustomStringConvertible {
    public var description: String { code }
}
