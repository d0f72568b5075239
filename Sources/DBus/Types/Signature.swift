/// A parsed D-Bus signature: a sequence of complete types, such as the body of a message (`sa{sv}as`).
///
/// Parsing enforces the specification's limits (255 bytes, 32 levels of array and of struct nesting,
/// dict entries only directly inside arrays and with a basic key), so a `Signature` value is always
/// valid and can be handed to libdbus as it is.
public struct Signature: Hashable, Sendable {
    /// The complete types, in order.
    public let types: [DBusType]

    /// A signature of the given types.
    ///
    /// The types are always well formed by construction; this does not check the 255-byte length
    /// limit, which `Message` checks when it is marshalled.
    public init(_ types: [DBusType]) {
        self.types = types
    }

    /// Parses the string form; throws `InvalidSignature` naming the offending position.
    public init(parsing text: String) throws(DBusError) {
        var parser = SignatureParser(Array(text.utf8))
        self.types = try parser.parseAll()
    }

    /// The empty signature (no arguments).
    public static let empty = Signature([])

    /// The string form.
    public var code: String { types.map(\.code).joined() }
}

extension Signature: CustomStringConvertible {
    public var description: String { code }
}

/// A recursive-descent parser over the UTF-8 bytes of a signature.
struct SignatureParser {
    static let maxLength = 255
    static let maxNesting = 32

    private let bytes: [UInt8]
    private var index = 0
    private var arrayDepth = 0
    private var structDepth = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func parseAll() throws(DBusError) -> [DBusType] {
        guard bytes.count <= Self.maxLength else {
            throw invalid("is longer than \(Self.maxLength) bytes")
        }
        var types: [DBusType] = []
        while index < bytes.count {
            types.append(try parseOne())
        }
        return types
    }

    /// Parses exactly one complete type (used for a variant's contents too).
    mutating func parseOne() throws(DBusError) -> DBusType {
        guard index < bytes.count else { throw invalid("ends where a type was expected") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "y"): return .byte
        case UInt8(ascii: "b"): return .boolean
        case UInt8(ascii: "n"): return .int16
        case UInt8(ascii: "q"): return .uint16
        case UInt8(ascii: "i"): return .int32
        case UInt8(ascii: "u"): return .uint32
        case UInt8(ascii: "x"): return .int64
        case UInt8(ascii: "t"): return .uint64
        case UInt8(ascii: "d"): return .double
        case UInt8(ascii: "s"): return .string
        case UInt8(ascii: "o"): return .objectPath
        case UInt8(ascii: "g"): return .signature
        case UInt8(ascii: "h"): return .unixFD
        case UInt8(ascii: "v"): return .variant
        case UInt8(ascii: "a"): return try parseArray()
        case UInt8(ascii: "("): return try parseStruct()
        default: throw invalid("has an unexpected '\(Character(Unicode.Scalar(byte)))' at \(index - 1)")
        }
    }

    private mutating func parseArray() throws(DBusError) -> DBusType {
        arrayDepth += 1
        defer { arrayDepth -= 1 }
        guard arrayDepth <= Self.maxNesting else { throw invalid("nests arrays deeper than 32") }
        if index < bytes.count, bytes[index] == UInt8(ascii: "{") {
            index += 1
            let key = try parseOne()
            guard key.isBasic else { throw invalid("has a dict key that is not a basic type") }
            let value = try parseOne()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "}") else {
                throw invalid("has a dict entry that is not closed by '}' after two types")
            }
            index += 1
            return .dictionary(key: key, value: value)
        }
        return .array(try parseOne())
    }

    private mutating func parseStruct() throws(DBusError) -> DBusType {
        structDepth += 1
        defer { structDepth -= 1 }
        guard structDepth <= Self.maxNesting else { throw invalid("nests structs deeper than 32") }
        var fields: [DBusType] = []
        while true {
            guard index < bytes.count else { throw invalid("has a struct that is never closed") }
            if bytes[index] == UInt8(ascii: ")") {
                index += 1
                guard !fields.isEmpty else { throw invalid("has an empty struct") }
                return .struct(fields)
            }
            fields.append(try parseOne())
        }
    }

    private func invalid(_ reason: String) -> DBusError {
        DBusError(DBusError.Name.invalidSignature,
                  "signature '\(String(decoding: bytes, as: UTF8.self))' \(reason)")
    }
}
