import AudioDevices
import Posix
#if canImport(Glibc)
import Glibc
#endif

/// The player's report to the person at the terminal: one line updated in place on a TTY, plain
/// log lines otherwise (for journald and pipes).
public struct StatusLine: Sendable {
    public let isTerminal: Bool

    public init(fileDescriptor: Int32 = 2) {
        isTerminal = isatty(fileDescriptor) == 1
    }

    public init(isTerminal: Bool) {
        self.isTerminal = isTerminal
    }

    /// The most characters of a title or an artist shown: the clock stays on the line.
    public static let longestField = 200

    /// `▶ Title — Artist  1:02 / 3:45` (state symbol, metadata, elapsed / duration). The title and
    /// artist come from the file: control characters are escaped and absurd lengths cut.
    public static func format(state: String, title: String, artist: String?, elapsed: Double,
                              duration: Double?) -> String {
        let who = artist.map { " — " + TerminalText.sanitized($0, maxLength: longestField) } ?? ""
        let total = duration.map { " / " + clock($0) } ?? ""
        let shown = TerminalText.sanitized(title, maxLength: longestField)
        return "\(symbol(for: state)) \(shown)\(who)  \(clock(elapsed))\(total)"
    }

    /// `m:ss`, or `h:mm:ss` from an hour on.
    public static func clock(_ seconds: Double) -> String {
        let whole = MediaTime.wholeSeconds(seconds)
        let (h, m, s) = (whole / 3600, whole / 60 % 60, whole % 60)
        let ss = s < 10 ? "0\(s)" : "\(s)"
        if h > 0 { return "\(h):\(m < 10 ? "0\(m)" : "\(m)"):\(ss)" }
        return "\(m):\(ss)"
    }

    static func symbol(for state: String) -> String {
        switch state {
        case "Playing": "▶"
        case "Paused": "⏸"
        default: "■"
        }
    }

    /// The bytes to write for `line`: on a terminal, carriage return + clear-to-end-of-line and no
    /// newline, so the next update overwrites it; elsewhere a plain line.
    public func rendering(_ line: String) -> String {
        isTerminal ? "\r\u{1B}[K" + line : line + "\n"
    }
}
