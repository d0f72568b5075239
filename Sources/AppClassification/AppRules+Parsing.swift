import SessionCore
import SystemContext

extension AppRules {
    /// What one line of the file is.
    enum LineOutcome: Sendable, Hashable {
        /// Blank or a comment.
        case blank
        /// Why the line is skipped.
        case problem(String)
        case rule(Rule)
        /// `player NAME = …` (AppRules+Players.swift).
        case playerRule(PlayerRule)
    }

    /// One token of a line: a bare word, a quoted name, or `=`.
    enum Token: Sendable, Hashable {
        case word(String)
        case quoted(String)
        case equals

        var text: String {
            switch self {
            case .word(let text), .quoted(let text): text
            case .equals: "="
            }
        }
    }

    /// Parses one line (`MATCH = ACTION`, see the type's documentation).
    static func parse(_ text: String, line: Int) -> LineOutcome {
        let tokens: [Token]
        switch tokenize(text) {
        case .success(let found): tokens = found
        case .failure(let problem): return .problem(problem.reason)
        }
        if tokens.isEmpty { return .blank }
        if tokens.first == .word("player") { return parsePlayerRule(tokens.dropFirst(), line: line) }
        guard let equals = tokens.firstIndex(of: .equals) else {
            return .problem("expected 'app NAME = ACTION', 'binary NAME = ACTION', 'flatpak ID = ACTION' or 'player NAME = spokenAudio'")
        }
        let match: Rule.Match
        switch parseMatch(tokens[..<equals]) {
        case .success(let found): match = found
        case .failure(let problem): return .problem(problem.reason)
        }
        switch parseAction(tokens[(equals + 1)...]) {
        case .success(let action): return .rule(Rule(line: line, match: match, action: action))
        case .failure(let problem): return .problem(problem.reason)
        }
    }

    /// Why a line is bad, in one line.
    struct LineProblem: Error, Sendable, Hashable {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    private static func parseMatch(_ tokens: ArraySlice<Token>) -> Result<Rule.Match, LineProblem> {
        let matchWords = "app, binary, flatpak or player"
        guard let first = tokens.first else { return .failure(LineProblem("nothing before '='; expected \(matchWords)")) }
        guard case .word(let kind) = first, ["app", "binary", "flatpak"].contains(kind) else {
            return .failure(LineProblem("\(Excerpt.quoted(first.text)): expected \(matchWords)"))
        }
        let names = tokens.dropFirst()
        guard let name = names.first, !name.text.isEmpty else {
            return .failure(LineProblem("\(kind) needs a name before '='"))
        }
        guard names.count == 1 else {
            return .failure(LineProblem("\(kind) takes one name; quote one with spaces: \(kind) \"\(Excerpt.shown(names.map(\.text).joined(separator: " ")))\""))
        }
        switch kind {
        case "app": return .success(.app(name.text))
        case "binary": return .success(.binary(name.text))
        default: return .success(.flatpak(name.text))
        }
    }

    private static func parseAction(_ tokens: ArraySlice<Token>) -> Result<Rule.Action, LineProblem> {
        let classes = "call, prompt, screenReader, systemSound, alert, game, media, music, mixing, ignore"
        guard let first = tokens.first else {
            return .failure(LineProblem("nothing after '='; expected a class (\(classes)) or a category"))
        }
        if let quoted = tokens.first(where: { if case .word = $0 { false } else { true } }) {
            return .failure(LineProblem("\(Excerpt.quoted(quoted.text)) after '=': expected plain words"))
        }
        if let appClass = AppClass.ruleWords[first.text] {
            if let extra = tokens.dropFirst().first {
                return .failure(LineProblem("class \(appClass) takes nothing after it, got \(Excerpt.quoted(extra.text))"))
            }
            return .success(.appClass(appClass))
        }
        guard let category = SessionCategory(rawValue: first.text) else {
            let categories = SessionCategory.allCases.map(\.rawValue).joined(separator: ", ")
            return .failure(LineProblem("\(Excerpt.quoted(first.text)) is neither a class (\(classes)) nor a category (\(categories))"))
        }
        return parseConfiguration(category, tokens.dropFirst().map(\.text))
    }

    /// A category's mode and options, checked as an app's own are (G-CAT-OPTIONS).
    private static func parseConfiguration(_ category: SessionCategory, _ words: [String]) -> Result<Rule.Action, LineProblem> {
        var mode: SessionMode?
        var options: SessionOptions = []
        for word in words {
            if let found = SessionMode(rawValue: word) {
                if let mode { return .failure(LineProblem("two modes: \(mode) and \(found)")) }
                guard found.isValid(for: category) else {
                    return .failure(LineProblem("mode \(found) does not fit category \(category)"))
                }
                mode = found
            } else if let option = SessionOption(rawValue: word) {
                options.insert(SessionOptions(option))
            } else {
                return .failure(LineProblem("\(Excerpt.quoted(word)) is neither a mode nor an option"))
            }
        }
        let configuration = SessionConfiguration(category, mode: mode ?? .default, options: options)
        do {
            return .success(.configuration(try configuration.validated().effective))
        } catch {
            if case .badParam(.optionNotAllowed(let option, _)) = error {
                return .failure(LineProblem("option \(option) does not fit category \(category)"))
            }
            return .failure(LineProblem("\(configuration) is not a valid configuration"))
        }
    }

    /// The tokens of `text` up to a `#` outside quotes.
    static func tokenize(_ text: String) -> Result<[Token], LineProblem> {
        var tokens: [Token] = []
        var word = ""
        var quoted: String?
        func endWord() {
            if !word.isEmpty { tokens.append(.word(word)) }
            word = ""
        }
        for character in text {
            if var open = quoted {
                if character == "\"" {
                    tokens.append(.quoted(open))
                    quoted = nil
                } else {
                    open.append(character)
                    quoted = open
                }
                continue
            }
            switch character {
            case "#": endWord(); return .success(tokens)
            case " ", "\t": endWord()
            case "=": endWord(); tokens.append(.equals)
            case "\"":
                guard word.isEmpty else { return .failure(LineProblem("a quote inside \(Excerpt.quoted(word))")) }
                quoted = ""
            default: word.append(character)
            }
        }
        if let open = quoted { return .failure(LineProblem("the quoted name \(Excerpt.quoted("\"" + open)) is not closed")) }
        endWord()
        return .success(tokens)
    }
}
