/// A piece of text from outside (an argument, a configuration line) quoted in a message: at most
/// `limit` characters, control and invisible characters escaped, so that a message stays one short
/// line whatever was typed or stored — no terminal escapes, no 100 KB echoes.
public enum Excerpt {
    public static let limit = 40

    /// `text` quoted: `'…'`, shortened with `…` beyond `limit` characters.
    public static func quoted(_ text: some StringProtocol, limit: Int = Excerpt.limit) -> String {
        "'" + shown(text, limit: limit) + "'"
    }

    /// `text` without quotes, escaped and shortened.
    public static func shown(_ text: some StringProtocol, limit: Int = Excerpt.limit) -> String {
        var result = ""
        var count = 0
        for scalar in text.unicodeScalars {
            let piece = escaped(scalar)
            if count + piece.count > limit {
                result += "…"
                break
            }
            result += piece
            count += piece.count
        }
        return result
    }

    private static func escaped(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        default: break
        }
        if scalar.value < 0x20 || scalar.value == 0x7f { return "\\x" + hex(scalar.value, digits: 2) }
        if scalar.isASCII { return String(scalar) }
        switch scalar.properties.generalCategory {
        case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator,
             .spaceSeparator, .nonspacingMark, .enclosingMark:
            return "\\u{" + hex(scalar.value, digits: 4) + "}"
        default:
            // U+FFFD stands for bytes that were not UTF-8.
            return scalar == "\u{FFFD}" ? "\\u{FFFD}" : String(scalar)
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
