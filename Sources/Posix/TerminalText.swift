/// Text from outside (file names, tags, names other programs chose) made safe for a terminal or a
/// log line.
///
/// A title can carry escape sequences that set the terminal's title, clear the screen or rewrite
/// what is shown, and a newline in a file name forges a log line. Every control character — C0
/// (newlines, tabs, ESC, BEL…), DEL and C1 — the Unicode line and paragraph separators and the
/// bidirectional marks and overrides (which reorder what a reader sees) become a visible escape
/// (`\x1b`, `\u2028`); text beyond `maxLength` characters is cut with `…`. Idempotent (an escape
/// contains no control character). Use it at the point where text reaches a person, never on data
/// (MPRIS values stay exactly as they are).
public enum TerminalText {
    /// The default cap: far beyond any real title or path shown on one line.
    public static let defaultMaxLength = 1024
    /// How much of a name chosen by someone else (a session's) a log line quotes: enough to
    /// recognise it, so that one line per event per session cannot grow with the name.
    public static let excerptLength = 64
    /// The longest log line of the daemon, in characters.
    public static let logLineLength = 2048

    /// A short excerpt of `text` (a name) for a log line.
    public static func excerpt(_ text: String) -> String {
        sanitized(text, maxLength: excerptLength)
    }

    /// `text` with control characters escaped visibly and cut to `maxLength` characters.
    public static func sanitized(_ text: String, maxLength: Int = defaultMaxLength) -> String {
        rendered(text, maxLength: maxLength, escaping: isControl)
    }

    /// Each line of `text` sanitized (the line breaks kept, each line up to `maxLength`): for a
    /// message of several lines to a person.
    public static func sanitizedLines(_ text: String, maxLength: Int = defaultMaxLength) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { sanitized(String($0), maxLength: maxLength) }.joined(separator: "\n")
    }

    /// `text` as quoted in a message about a bad value, where a person must see exactly what was
    /// typed or stored: besides the control characters, everything that shows as nothing or as a
    /// blank — format characters, spaces other than U+0020, combining marks, private-use and
    /// unassigned code points, and U+FFFD, which stands for bytes that were not UTF-8 — is escaped
    /// the same way. Cut to `maxLength` characters.
    public static func visible(_ text: some StringProtocol, maxLength: Int) -> String {
        rendered(String(text), maxLength: maxLength, escaping: isInvisible)
    }

    private static func rendered(_ text: String, maxLength: Int, escaping: (Unicode.Scalar) -> Bool) -> String {
        let limit = max(maxLength, 1)
        var needsWork = false
        var count = 0
        for scalar in text.unicodeScalars {
            count += 1
            if count > limit || escaping(scalar) {
                needsWork = true
                break
            }
        }
        guard needsWork else { return text }
        var result = String.UnicodeScalarView()
        var length = 0
        for scalar in text.unicodeScalars {
            let piece = escaping(scalar) ? escape(scalar) : String(scalar)
            let pieceLength = piece.unicodeScalars.count
            if length + pieceLength > limit {
                result.append("…")
                break
            }
            result.append(contentsOf: piece.unicodeScalars)
            length += pieceLength
        }
        return String(result)
    }

    /// A control character, or one a reader cannot see or tell from a plain space.
    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        if isControl(scalar) { return true }
        if scalar.isASCII { return false }
        if scalar == "\u{FFFD}" { return true }
        switch scalar.properties.generalCategory {
        case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator,
             .spaceSeparator, .nonspacingMark, .enclosingMark:
            return true
        default:
            return false
        }
    }

    /// Whether `scalar` is a control character a terminal or a log reader acts on.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x2028, 0x2029: true  // line and paragraph separators
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true  // bidi marks and overrides
        default: false
        }
    }

    /// `\x1b` for a control character up to U+00FF, `\u2028` beyond.
    private static func escape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16)
        if scalar.value <= 0xFF { return "\\x" + (hex.count < 2 ? "0" + hex : hex) }
        return "\\u" + hex
    }
}
