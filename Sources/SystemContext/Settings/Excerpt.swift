import Posix

/// A piece of text from outside (an argument, a configuration line) quoted in a message: at most
/// `limit` characters, control and invisible characters escaped, so that a message stays one short
/// line whatever was typed or stored — no terminal escapes, no 100 KB echoes. Escaped as every
/// other message of the program escapes (`TerminalText`: `\x1b`, `\u202e`).
public enum Excerpt {
    public static let limit = 40

    /// `text` quoted: `'…'`, shortened with `…` beyond `limit` characters.
    public static func quoted(_ text: some StringProtocol, limit: Int = Excerpt.limit) -> String {
        "'" + shown(text, limit: limit) + "'"
    }

    /// `text` without quotes, escaped and shortened.
    public static func shown(_ text: some StringProtocol, limit: Int = Excerpt.limit) -> String {
        TerminalText.visible(text, maxLength: limit)
    }
}
