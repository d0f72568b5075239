import AudioServer

/// A restore key as one field of a journal line (`StreamJournalEntry`): any text, with nothing in
/// it that could split or end the line.
extension StreamRestoreKey {
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
        self.init(value: decoded)
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
}
