/// The user's configuration file, `$XDG_CONFIG_HOME/mprisd/config`: one `key = value` per line,
/// `#` starts a comment, blank lines are ignored. Lines end with LF, CRLF or CR.
///
/// Reading never fails as a whole: a malformed line is reported with its number and skipped, the
/// rest still counts. Nothing in it is ever executed. A file that is not one to read (a FIFO, over
/// 1 MiB, not text; see `SettingsFile`) is reported in one line and none of it is used. Messages
/// quote at most an `Excerpt` of a line. Parsing takes time linear in the file's size.
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
    /// Lines that could not be understood, as `PATH:LINE: reason` (`PATH: reason` for the file).
    public var problems: [String]

    /// Parses `text` (read from `path`, for messages).
    public init(parsing text: String, path: String) {
        self.path = path
        entries = []
        problems = []
        var lineNumber = 0
        for raw in Self.lines(of: Array(text.utf8)) {
            lineNumber += 1
            parse(line: raw, number: lineNumber)
        }
    }

    /// The file could not be used at all.
    init(refused problem: SettingsFileProblem) {
        path = problem.path
        entries = []
        problems = [problem.description]
    }

    /// The user's file; an absent file is an empty configuration.
    public static func load(path: String = UserDirectories.configFile) -> ConfigFile {
        do {
            return ConfigFile(parsing: try SettingsFile.read(path) ?? "", path: path)
        } catch {
            return ConfigFile(refused: error)
        }
    }

    /// At most this many problems are shown, then how many more there are: a broken file must not
    /// bury a command's own output.
    public static let problemLimit = 20

    /// The first `problemLimit` of `problems`, and a line counting the rest if there are more.
    public func brief(_ problems: [String]) -> [String] {
        guard problems.count > Self.problemLimit else { return problems }
        return problems.prefix(Self.problemLimit) + ["\(path): \(problems.count - Self.problemLimit) more problems not shown"]
    }

    /// A problem at `entry`'s line.
    public func problem(_ entry: Entry, _ reason: String) -> String {
        "\(path):\(entry.line): \(reason)"
    }

    // MARK: Parsing

    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")

    /// The lines of `bytes`, without their endings (LF, CRLF or a lone CR); public for the other
    /// files of the same conventions (`AppRules`).
    public static func lines(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == lineFeed || byte == carriageReturn {
                lines.append(bytes[start..<index])
                if byte == carriageReturn, index + 1 < bytes.count, bytes[index + 1] == lineFeed { index += 1 }
                start = index + 1
            }
            index += 1
        }
        if start < bytes.count { lines.append(bytes[start...]) }
        return lines
    }

    private mutating func parse(line raw: ArraySlice<UInt8>, number: Int) {
        let content = raw.firstIndex(of: UInt8(ascii: "#")).map { raw[..<$0] } ?? raw
        let trimmed = Self.trimmed(content)
        if trimmed.isEmpty { return }
        guard let equals = trimmed.firstIndex(of: UInt8(ascii: "=")) else {
            problems.append("\(path):\(number): expected 'key = value', got \(Excerpt.quoted(Self.text(trimmed)))")
            return
        }
        let key = Self.text(Self.trimmed(trimmed[..<equals]))
        let value = Self.text(Self.trimmed(trimmed[(equals + 1)...]))
        guard !key.isEmpty, key.unicodeScalars.allSatisfy(Self.isNameScalar) else {
            problems.append("\(path):\(number): \(Excerpt.quoted(key)) is not a setting name")
            return
        }
        entries.append(Entry(line: number, key: key, value: value))
    }

    /// Letters, digits, `.`, `_` and `-`.
    private static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            return ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || scalar == "." || scalar == "_" || scalar == "-"
        }
        return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    /// Without leading and trailing spaces and tabs.
    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }),
              let last = bytes.lastIndex(where: { !isSpace($0) }) else { return [] }
        return bytes[first...last]
    }

    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
