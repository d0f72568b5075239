import DBus
import TestSupport

/// Hostile D-Bus values from a seeded generator: edge values of the right type, values of every
/// wrong type, huge strings and arrays, deep nesting. Every value is valid D-Bus (the bus daemon
/// would drop anything else before the target saw it); the point is what the target makes of it.
struct FuzzValues {
    var rng: SeededRNG

    init(seed: UInt64) {
        rng = SeededRNG(seed: seed)
    }

    /// A megabyte of text (multi-byte characters included).
    static let hugeString = String(repeating: "mprisd-fuzz-é€😀-", count: 1 << 20 / 26)
    /// The deepest variant nesting libdbus accepts in a message body (64 containers in all).
    static let deepestVariant = 63

    static let edgeDoubles: [Double] = [.nan, .infinity, -.infinity, -1, -0.0, 0, 0.5, 1, 1.000001, 2, 1e308,
                                        -1e308, .leastNonzeroMagnitude, .greatestFiniteMagnitude, .ulpOfOne]
    static let edgeStrings: [String] = ["", " ", "None", "Track", "Playlist", "playback", "voiceChat", "duckOthers",
                                        "speaker", "auto", "file:///nonexistent", "http://x", "a:b", "\u{FEFF}",
                                        "\u{10FFFF}", "../../etc/passwd", "$(touch /tmp/x)", "`id`", "%s%n%x",
                                        String(repeating: "x", count: 4096)]
    static let edgePaths: [String] = ["/", "/org/mpris/MediaPlayer2", "/org/mprisd/track/0", "/org/mprisd/track/999999999",
                                      "/org/mpris/MediaPlayer2/TrackList/NoTrack", "/org/mprisd/AudioPolicy/session/0",
                                      "/" + Array(repeating: "a", count: 200).joined(separator: "/"), "/_9"]

    mutating func pick<T>(_ values: [T]) -> T { values[Int(rng.next() % UInt64(values.count))] }
    mutating func chance(_ percent: UInt64) -> Bool { rng.next() % 100 < percent }

    /// An edge value of `type`.
    mutating func value(of type: DBusType, depth: Int = 0) -> DBusValue {
        switch type {
        case .byte: .byte(pick([0, 1, 0x7f, 0x80, 0xff]))
        case .boolean: .boolean(chance(50))
        case .int16: .int16(pick([.min, -1, 0, 1, .max]))
        case .uint16: .uint16(pick([0, 1, .max]))
        case .int32: .int32(pick([.min, -1, 0, 1, .max]))
        case .uint32: .uint32(pick([0, 1, .max]))
        case .int64: .int64(pick([.min, .min + 1, -1_000_000_000_000, -1, 0, 1, 1_000_000, .max - 1, .max]))
        case .uint64: .uint64(pick([0, 1, .max]))
        case .double: .double(pick(Self.edgeDoubles))
        case .string: .string(chance(3) ? Self.hugeString : pick(Self.edgeStrings))
        case .objectPath: .objectPath((try? ObjectPath(pick(Self.edgePaths))) ?? .root)
        case .signature: .signature((try? Signature(parsing: pick(["", "s", "a{sv}", "(ii)", "v"]))) ?? .empty)
        case .unixFD: .uint32(0)  // never sent as a descriptor; a wrong type instead
        case .variant: .variant(depth > 2 ? .int32(1) : value(of: randomType(), depth: depth + 1))
        case .array(let element):
            .array(element: element, (0..<Int(rng.next() % 4)).map { _ in value(of: element, depth: depth + 1) })
        case .dictionary(let key, let valueType):
            dictionary(key: key, value: valueType, depth: depth)
        case .struct(let fields): .struct(fields.map { value(of: $0, depth: depth + 1) })
        }
    }

    /// A dictionary; for `a{sv}` with the keys the targets know, each holding a value of a random
    /// type (sometimes the right one).
    private mutating func dictionary(key: DBusType, value valueType: DBusType, depth: Int) -> DBusValue {
        let knownKeys = ["category", "mode", "options", "name", "allowDelayedActivation", "notifyOthers", "", "x"]
        let count = Int(rng.next() % 5)
        var entries: [DictionaryEntry] = []
        for _ in 0..<count {
            let k: DBusValue = key == .string ? .string(pick(knownKeys)) : value(of: key, depth: depth + 1)
            let v: DBusValue = valueType == .variant ? .variant(value(of: randomType(), depth: depth + 1))
                : value(of: valueType, depth: depth + 1)
            entries.append(DictionaryEntry(k, v))
        }
        return .dictionary(key: key, value: valueType, entries)
    }

    /// Any type but `avoiding` (a wrong-type argument).
    mutating func wrongValue(avoiding type: DBusType) -> DBusValue {
        while true {
            let candidate = randomType()
            if candidate != type { return value(of: candidate) }
        }
    }

    mutating func randomType() -> DBusType {
        pick([.byte, .boolean, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double, .string, .objectPath,
              .signature, .variant, .array(.string), .array(.byte), .dictionary(key: .string, value: .variant),
              .struct([.int32, .string]), .array(.variant), .dictionary(key: .uint32, value: .string)])
    }

    /// `depth` variants, one inside the other, around an int.
    static func nestedVariant(_ depth: Int) -> DBusValue {
        var value = DBusValue.int32(7)
        for _ in 0..<depth { value = .variant(value) }
        return value
    }

    /// A big container of `type`: a million bytes, or 100,000 elements of anything else.
    static func hugeArray(of type: DBusType) -> DBusValue {
        switch type {
        case .byte: .array(element: .byte, [DBusValue](repeating: .byte(0xA5), count: 1 << 20))
        case .string: .array(element: .string, (0..<100_000).map { .string("s\($0)") })
        case .variant: .array(element: .variant, (0..<100_000).map { .variant(.int32(Int32($0))) })
        default: .array(element: type, [DBusValue](repeating: FuzzValues.sample(type), count: 100_000))
        }
    }

    /// A plain valid value of `type`.
    static func sample(_ type: DBusType) -> DBusValue {
        switch type {
        case .byte: .byte(1)
        case .boolean: .boolean(false)
        case .int16: .int16(1)
        case .uint16: .uint16(1)
        case .int32: .int32(1)
        case .uint32: .uint32(1)
        case .int64: .int64(1)
        case .uint64: .uint64(1)
        case .double: .double(0.5)
        case .string: .string("x")
        case .objectPath: .objectPath(.root)
        case .signature: .signature(.empty)
        case .unixFD: .uint32(0)
        case .variant: .variant(.int32(1))
        case .array(let element): .array(element: element, [])
        case .dictionary(let key, let value): .dictionary(key: key, value: value, [])
        case .struct(let fields): .struct(fields.map(sample))
        }
    }
}
