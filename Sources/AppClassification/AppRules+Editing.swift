import SystemContext

/// `mprisd apps set` and `unset` on the apps file's text: a rule written, replaced or removed
/// without touching anything else — comments, blank lines, bad lines, other rules and their
/// line endings stay byte for byte. Pure text in, text out: the command reads and writes the
/// file (atomically), and the new text is checked with the same parser the daemon reads it with.
extension AppRules {
    /// A rule could not be written: one line saying why.
    public struct EditError: Error, Sendable, Hashable, CustomStringConvertible {
        public let reason: String
        public init(_ reason: String) { self.reason = reason }
        public var description: String { reason }
    }

    /// The file's new text and what changed in it.
    public struct Edit: Sendable, Hashable {
        /// The whole new contents.
        public var text: String
        /// The rule written (`set`), with its line number in the new text; nil for `unset`.
        public var written: Rule?
        /// The line (of the old text) the written rule replaced, nil when it was added at the end.
        public var replacedLine: Int?
        /// Lines of the old text removed: every rule for the match (`unset`), or rules for it
        /// after the one replaced, which could never apply (`set`).
        public var removedLines: [Int]
    }

    /// `text` with the rule `match = ACTION` (`actionWords`, as on the command line): it replaces
    /// the first rule for the same match in place (keeping that line's indentation and trailing
    /// comment), and later rules for that match are removed (they never applied); without one,
    /// it is added at the end.
    /// - Throws: `EditError` for a name that cannot be written, an action the daemon would not
    ///   read, or a rule the daemon would not use (past `ruleLimit`).
    public static func setting(_ match: Rule.Match, to actionWords: [String], in text: String,
                               path: String) throws(EditError) -> Edit {
        let rule = try rule(match, actionWords)
        var lines = SourceLine.split(text)
        let ending = lines.first { !$0.ending.isEmpty }?.ending ?? "\n"
        let matching = lines.indices.filter { lines[$0].rule?.match.key == match.key }
        var replacedLine: Int?
        var removed: [Int] = []
        let writtenIndex: Int
        if let first = matching.first {
            replacedLine = first + 1
            lines[first].content = lines[first].indentation + rule.text + lines[first].comment
            for index in matching.dropFirst().reversed() {
                removed.insert(index + 1, at: 0)
                lines.remove(at: index)
            }
            writtenIndex = first
        } else {
            if let last = lines.indices.last, lines[last].ending.isEmpty { lines[last].ending = ending }
            lines.append(SourceLine(content: rule.text, ending: ending))
            writtenIndex = lines.count - 1
        }
        let newText = SourceLine.join(lines)
        let check = AppRules(parsing: newText, path: path)
        var written = rule
        written.line = writtenIndex + 1
        guard check.rules.contains(written) else {
            throw EditError("\(path) already has \(ruleLimit) rules, the most the daemon reads; remove one first")
        }
        return Edit(text: newText, written: written, replacedLine: replacedLine, removedLines: removed)
    }

    /// `text` without any rule for `match`.
    /// - Throws: `EditError` when there is none.
    public static func unsetting(_ match: Rule.Match, in text: String, path: String) throws(EditError) -> Edit {
        var lines = SourceLine.split(text)
        let matching = lines.indices.filter { lines[$0].rule?.match.key == match.key }
        guard !matching.isEmpty else { throw EditError("no rule for \(Excerpt.shown(match.text, limit: 80)) in \(path)") }
        for index in matching.reversed() { lines.remove(at: index) }
        return Edit(text: SourceLine.join(lines), written: nil, replacedLine: nil, removedLines: matching.map { $0 + 1 })
    }

    /// The rule `match = actionWords…` (each word may hold several, split at blanks), parsed as
    /// the daemon parses a line; line 1.
    /// - Throws: `EditError` for a name that cannot be written or an action the daemon would not
    ///   read, with the parser's reason.
    public static func rule(_ match: Rule.Match, _ actionWords: [String]) throws(EditError) -> Rule {
        guard Rule.Match.isWritable(match.name) else {
            throw EditError("\(match.kind) takes a name without '\"' or control characters, not \(Excerpt.quoted(match.name))")
        }
        let words = actionWords.flatMap { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init) }
        guard !words.isEmpty else { throw EditError("\(match.kind) \(Excerpt.shown(match.name)) needs a class or a category") }
        if let odd = words.first(where: { word in word.unicodeScalars.contains { "\"=#".unicodeScalars.contains($0) || $0.value < 0x20 || $0.value == 0x7F } }) {
            throw EditError("\(Excerpt.quoted(odd)): a class, category, mode or option is a plain word")
        }
        let line = match.text + " = " + words.joined(separator: " ")
        guard line.utf8.count <= lineLengthLimit else {
            throw EditError("the rule would be \(line.utf8.count) bytes long; the daemon reads lines of at most \(lineLengthLimit)")
        }
        switch parse(line, line: 1) {
        case .rule(let rule) where rule.match == match: return rule
        case .problem(let reason): throw EditError(reason)
        case .rule, .blank, .playerRule: throw EditError("\(Excerpt.quoted(match.text)) cannot be written as a rule")
        }
    }
}

/// One line of the file as it is: its bytes without the ending, and the ending itself (LF, CRLF,
/// a lone CR, or nothing on a last line without one) — the same cut as `ConfigFile.lines`, so
/// line numbers agree with the daemon's.
private struct SourceLine {
    var content: String
    var ending: String

    /// The rule on this line, nil for a comment, a blank or a bad line (or one too long to read).
    var rule: AppRules.Rule? {
        guard content.utf8.count <= AppRules.lineLengthLimit,
              case .rule(let rule) = AppRules.parse(content, line: 1) else { return nil }
        return rule
    }

    /// The spaces and tabs the line starts with.
    var indentation: String { String(content.prefix { $0 == " " || $0 == "\t" }) }

    /// The comment at the end (from the first `#` outside quotes), with the blanks before it;
    /// empty without one.
    var comment: String {
        var quoted = false
        for index in content.indices {
            switch content[index] {
            case "\"": quoted.toggle()
            case "#" where !quoted:
                let blanks = content[..<index].reversed().prefix { $0 == " " || $0 == "\t" }.count
                return String(content[content.index(index, offsetBy: -blanks)...])
            default: continue
            }
        }
        return ""
    }

    static func split(_ text: String) -> [SourceLine] {
        var lines: [SourceLine] = []
        let scalars = Array(text.unicodeScalars)
        var start = 0
        var index = 0
        func content(_ range: Range<Int>) -> String {
            var string = String.UnicodeScalarView()
            string.append(contentsOf: scalars[range])
            return String(string)
        }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\n" || scalar == "\r" {
                var ending = String(scalar)
                if scalar == "\r", index + 1 < scalars.count, scalars[index + 1] == "\n" {
                    ending = "\r\n"
                    index += 1
                }
                lines.append(SourceLine(content: content(start..<(index + 1 - ending.unicodeScalars.count)), ending: ending))
                start = index + 1
            }
            index += 1
        }
        if start < scalars.count { lines.append(SourceLine(content: content(start..<scalars.count), ending: "")) }
        return lines
    }

    static func join(_ lines: [SourceLine]) -> String {
        lines.map { $0.content + $0.ending }.joined()
    }
}
