#if canImport(Glibc)
import Glibc
#endif

/// The user's configuration file, `$XDG_CONFIG_HOME/mprisd/config`: one `key = value` per line,
/// `#` starts a comment, blank lines are ignored.
///
/// Reading never fails as a whole: a malformed line is reported with its number and skipped, the
/// rest still counts. Nothing in it is ever executed.
public struct ConfigFile: Sendable, Hashable {
    /// One `key = value` line.
    public struct Entry: Sendable, Hashable {
        public var line: Int
        public var key: String
        public var value: String
    }

    /// Where it was read from.
    public var path: String
    public var entries: [Entry]
    /// Lines that could not be understood, as `PATH:LINE: reason`.
    public var problems: [String]

    /// Parses `text` (read from `path`, for messages).
    public init(parsing text: String, path: String) {
        self.path = path
        entries = []
        problems = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = index + 1
            let content = raw.firstIndex(of: "#").map { raw[..<$0] } ?? raw[...]
            let trimmed = String(content).trimmingWhiteSpace
            if trimmed.isEmpty { continue }
            guard let equals = trimmed.firstIndex(of: "=") else {
                problems.append("\(path):\(line): expected 'key = value', got '\(trimmed)'")
                continue
            }
            let key = String(trimmed[..<equals]).trimmingWhiteSpace
            let value = String(trimmed[trimmed.index(after: equals)...]).trimmingWhiteSpace
            guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || "._-".contains($0) }) else {
                problems.append("\(path):\(line): '\(key)' is not a setting name")
                continue
            }
            entries.append(Entry(line: line, key: key, value: value))
        }
    }

    /// The user's file; an absent file is an empty configuration.
    public static func load(path: String = UserDirectories.configFile) -> ConfigFile {
        guard let text = StateFile(path: path).read() else { return ConfigFile(parsing: "", path: path) }
        return ConfigFile(parsing: text, path: path)
    }

    /// A problem at `entry`'s line.
    public func problem(_ entry: Entry, _ reason: String) -> String {
        "\(path):\(entry.line): \(reason)"
    }
}
