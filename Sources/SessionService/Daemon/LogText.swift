/// Text from outside the daemon (session names, player properties, error messages of other
/// programs) made safe for a log line: it can neither forge lines nor drive the terminal or
/// journal viewer that shows them, and it cannot make one line arbitrarily long.
public enum LogText {
    /// How much of a name a log line quotes: enough to recognise it.
    public static let excerptBytes = 64
    /// The longest log line, in bytes of UTF-8 before the ellipsis.
    public static let lineBytes = 2048

    /// `text` with every control character (C0, DEL, C1, Unicode line separators and bidi
    /// overrides) written as an escape (`\n`, `\u{1B}`), cut after `limit` bytes of UTF-8 with `…`
    /// appended when something was left out. Idempotent (an escape contains no control
    /// character), so text sanitized early, like a name excerpt, reads the same at the log's sink.
    public static func sanitized(_ text: String, limit: Int = lineBytes) -> String {
        var result = ""
        var bytes = 0
        for scalar in text.unicodeScalars {
            let piece = escape(scalar)
            bytes += piece.utf8.count
            guard bytes <= limit else { return result + "…" }
            result += piece
        }
        return result
    }

    /// A short excerpt of `text` (a session's name): sanitized, `excerptBytes` at most.
    public static func excerpt(_ text: String) -> String {
        sanitized(text, limit: excerptBytes)
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        default:
            return isControl(scalar) ? "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" : String(scalar)
        }
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x2028, 0x2029: true  // line and paragraph separators
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true  // bidi marks and overrides
        default: false
        }
    }
}
