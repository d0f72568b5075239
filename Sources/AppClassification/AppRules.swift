import AudioServer
import SessionCore
import SystemContext

/// The user's rules for apps that know nothing of mprisd, `$XDG_CONFIG_HOME/mprisd/apps`: the
/// first thing the classifier asks, before the stream's role and the built-in name table.
///
/// One rule per line, `MATCH = ACTION`; `#` outside quotes starts a comment, blank lines are
/// ignored, lines end with LF, CRLF or CR (as `ConfigFile`):
///
///     app "ZOOM VoiceEngine" = call          # application.name, without regard to case
///     binary electron = ignore               # application.process.binary, exactly
///     flatpak org.signal.Signal = call       # the Flatpak app id, exactly
///     app Twinkle = playAndRecord voiceChat  # a category, then a mode and options, any order
///     app "Kids Game" = soloAmbient
///     player mpv = spokenAudio               # an MPRIS player (AppRules+Players.swift)
///
/// A name is one word (no spaces, `"`, `=` or `#`) or is quoted (`"…"`, no `"` inside). An
/// ACTION is a class — `call`, `prompt`, `screenReader`, `systemSound` (or `alert`), `game`,
/// `media` (or `music`), `mixing`, `ignore` (`AppClass`) — or a category (`SessionCategory`)
/// followed by at most one mode (`SessionMode`) and any options (`SessionOption`), checked as an
/// app's own configuration is (G-CAT-OPTIONS: an option that does not fit is an error).
///
/// The **first** matching rule wins, whatever kind of match it is: put narrow rules first. A rule
/// that can never apply (the same match given again) is reported. `player` rules are a list of
/// their own (`playerRules`): they only say whether an MPRIS player is spoken audio, and never
/// classify a stream. Both kinds count towards `ruleLimit`.
///
/// Reading never fails as a whole: a bad line is reported as `PATH:LINE: reason` and skipped, the
/// rest still applies. A line longer than `lineLengthLimit` bytes is refused, and at most
/// `ruleLimit` rules are read. The file itself is read as every settings file is (`SettingsFile`:
/// no FIFO, at most 1 MiB, UTF-8); a file refused whole is one problem and no rules.
public struct AppRules: Sendable, Hashable {
    /// One rule of the file.
    public struct Rule: Sendable, Hashable {
        /// What a rule matches.
        public enum Match: Sendable, Hashable, CustomStringConvertible {
            /// `application.name`, without regard to case.
            case app(String)
            /// `application.process.binary`, exactly.
            case binary(String)
            /// The Flatpak app id, exactly.
            case flatpak(String)

            /// Equal for matches of the same streams (an app's name without regard to case).
            var key: String {
                switch self {
                case .app(let name): "app " + name.lowercased()
                case .binary(let name): "binary " + name
                case .flatpak(let id): "flatpak " + id
                }
            }

            public var description: String {
                switch self {
                case .app(let name): "app \"\(name)\""
                case .binary(let name): "binary \"\(name)\""
                case .flatpak(let id): "flatpak \"\(id)\""
                }
            }
        }

        /// What a rule makes of the app.
        public enum Action: Sendable, Hashable {
            case appClass(AppClass)
            /// A validated configuration (`AppClass.custom`).
            case configuration(SessionConfiguration)
        }

        public var line: Int
        public var match: Match
        public var action: Action

        /// Whether `stream` is one of the rule's app.
        public func matches(_ stream: AudioStream) -> Bool {
            switch match {
            case .app(let name): stream.applicationName.map { $0.lowercased() == name.lowercased() } ?? false
            case .binary(let name): stream.binary == name
            case .flatpak(let id): stream.flatpakID == id
            }
        }
    }

    /// A line longer than this (in bytes) is refused: far beyond any real rule.
    public static let lineLengthLimit = 1024
    /// At most this many rules are read; later lines are reported once and ignored.
    public static let ruleLimit = 1000

    /// Where it was read from.
    public var path: String
    /// The rules, in file order.
    public var rules: [Rule]
    /// The `player` rules, in file order: they apply to MPRIS players, never to streams.
    public var playerRules: [PlayerRule] = []
    /// Lines that could not be used, as `PATH:LINE: reason` (`PATH: reason` for the file), in
    /// file order.
    public var problems: [String]

    /// No rules.
    public init() {
        path = UserDirectories.appsFile
        rules = []
        problems = []
    }

    /// Parses `text` (read from `path`, for messages).
    public init(parsing text: String, path: String) {
        self.path = path
        rules = []
        problems = []
        var lineNumber = 0
        for raw in ConfigFile.lines(of: Array(text.utf8)) {
            lineNumber += 1
            if raw.count > Self.lineLengthLimit {
                problems.append("\(path):\(lineNumber): longer than \(Self.lineLengthLimit) bytes; ignored")
                continue
            }
            let outcome = Self.parse(String(decoding: raw, as: UTF8.self), line: lineNumber)
            if case .blank = outcome { continue }
            if rules.count + playerRules.count == Self.ruleLimit {
                problems.append("\(path):\(lineNumber): more than \(Self.ruleLimit) rules; this line and the rest are ignored")
                return
            }
            switch outcome {
            case .blank: continue
            case .problem(let reason): problems.append("\(path):\(lineNumber): \(reason)")
            case .rule(let rule): add(rule)
            case .playerRule(let rule): add(rule)
            }
        }
    }

    /// The user's file; an absent file is no rules.
    public static func load(path: String = UserDirectories.appsFile) -> AppRules {
        do {
            return AppRules(parsing: try SettingsFile.read(path) ?? "", path: path)
        } catch {
            var rules = AppRules()
            rules.path = path
            rules.problems = [error.description]
            return rules
        }
    }

    /// The first rule that matches `stream` (G-CAT-SEMANTIC: the user knows what the app means).
    public func rule(for stream: AudioStream) -> Rule? {
        rules.first { $0.matches(stream) }
    }

    /// The first `ConfigFile.problemLimit` problems, and a line counting the rest if there are
    /// more: a broken file must not bury a command's own output.
    public var briefProblems: [String] {
        guard problems.count > ConfigFile.problemLimit else { return problems }
        return problems.prefix(ConfigFile.problemLimit)
            + ["\(path): \(problems.count - ConfigFile.problemLimit) more problems not shown"]
    }

    private mutating func add(_ rule: Rule) {
        if let earlier = rules.first(where: { $0.match.key == rule.match.key }) {
            problems.append("\(path):\(rule.line): \(Excerpt.shown(rule.match.description, limit: 60)) never applies: line \(earlier.line) matches it first")
            return
        }
        rules.append(rule)
    }

    private mutating func add(_ rule: PlayerRule) {
        if let earlier = playerRules.first(where: { $0.name.lowercased() == rule.name.lowercased() }) {
            problems.append("\(path):\(rule.line): player \"\(Excerpt.shown(rule.name, limit: 60))\" never applies: line \(earlier.line) matches it first")
            return
        }
        playerRules.append(rule)
    }
}
