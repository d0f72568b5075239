import AudioServer
import FoundationEssentials

/// What the server's restore database files a playback stream's volume and mute under — the key
/// both servers compute (`AudioStream.restoreKey`: `module-stream-restore.id`, else
/// `sink-input-by-media-role:ROLE`, by application id, name or media name). Compared without
/// regard to case: pipewire-pulse hands roles to WirePlumber renamed (`music` → `Music`).
///
/// Used to repair what the database kept of a stream that ended while we had it ducked or muted:
/// the entry itself (`writeRestoreEntry`), else the next stream of that key.
public struct StreamRestoreKey: Sendable, Hashable, CustomStringConvertible {
    /// The server's key, as it spells it.
    public let value: String

    public init(value: String) {
        self.value = value
    }

    /// The key of `stream`; nil when it has neither role, application nor media name.
    public init?(_ stream: AudioStream) {
        guard let key = stream.restoreKey, !key.isEmpty else { return nil }
        value = key
    }

    /// For a stream with nothing to key it by: never matched against another stream.
    public static let none = StreamRestoreKey(value: "none")

    /// Whether another stream can share it (the database files them together).
    public var isShared: Bool { self != .none }

    public static func == (lhs: StreamRestoreKey, rhs: StreamRestoreKey) -> Bool {
        lhs.value.lowercased() == rhs.value.lowercased()
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(value.lowercased())
    }

    /// Percent-encoded: one journal field.
    /// Every UTF-8 byte other than ASCII letters, digits and `:._-` as `%XX` (upper-case hex).
    var encoded: String {
        var text = ""
        for byte in value.utf8 {
            if Self.isPlain(byte) {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                text += "%" + Self.hex(byte >> 4) + Self.hex(byte & 0x0f)
            }
        }
        return text
    }

    /// The key `encoded` wrote; nil for a malformed `%` escape, bytes that are not UTF-8, an empty
    /// or an over-long key.
    init?(encoded: Substring) {
        var bytes: [UInt8] = []
        var rest = encoded.utf8[...]
        while let byte = rest.popFirst() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = rest.popFirst().flatMap(Self.nibble), let low = rest.popFirst().flatMap(Self.nibble) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        guard !bytes.isEmpty, bytes.count <= 1024, let decoded = String(validating: bytes, as: UTF8.self) else { return nil }
        value = decoded
    }

    private static func isPlain(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    private static func hex(_ value: UInt8) -> String {
        String(UnicodeScalar(value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10))
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    public var description: String { value }
}
