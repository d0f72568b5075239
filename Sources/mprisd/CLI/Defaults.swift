import AudioPolicyDaemon
import MPRISDirectory
import Player
import SystemContext
#if canImport(Glibc)
import Glibc
#endif

/// Defaults for the command-line flags, from the user's configuration file
/// (`$XDG_CONFIG_HOME/mprisd/config`): one key per flag, `COMMAND.FLAG = VALUE`
/// (`play.volume = 0.5`, `play.shuffle = true`, `daemon.verbose = yes`).
///
/// The one table of keys: the parser, the `--help` of each command and `mprisd help config` are
/// made from it, and the tests check the man page against `mprisd help config`. A default acts exactly as if its flag had been
/// typed first, so a command validates it like any flag; a flag given on the command line wins, and
/// `--no-FLAG` undoes a switch turned on here. A bad line is reported as `PATH:LINE: reason` and
/// skipped — the command still runs with the rest. `output.*` lines belong to `ConfiguredOutput`,
/// which reports their problems where outputs are used.
enum Defaults {
    /// One configurable flag.
    struct Key: Sendable {
        enum Kind: Sendable {
            /// `--flag VALUE`: `placeholder` for help texts; `check` returns why a value is bad.
            case value(placeholder: String, check: @Sendable (String) -> String?)
            /// `--flag` alone.
            case toggle
        }

        /// `play`, `run`, … (`daemon` for plain `mprisd`).
        let command: String
        /// `--volume`.
        let flag: String
        let kind: Kind

        /// `play.volume`.
        var name: String { command + "." + flag.dropFirst(2) }

        /// `0 to 1`, `true|false`: what the value may be.
        var valueText: String {
            switch kind {
            case .value(let placeholder, _): placeholder
            case .toggle: "true|false"
            }
        }
    }

    static let keys: [Key] = [
        Key(command: "daemon", flag: "--control", kind: .value(placeholder: "CTL", check: ValueRules.device)),
        Key(command: "daemon", flag: "--keep-paused-after-calls", kind: .toggle),
        // On by default, so a value rather than a switch (a switch's key can only turn it on).
        Key(command: "daemon", flag: "--pause-before-sleep", kind: .value(placeholder: "true|false", check: switchValue)),
        Key(command: "daemon", flag: "--ignore-players", kind: .value(placeholder: "NAME,NAME", check: PlayerIgnoreList.problem(in:))),
        Key(command: "daemon", flag: "--verbose", kind: .toggle),
        Key(command: "play", flag: "--device", kind: .value(placeholder: "PCM", check: ValueRules.device)),
        Key(command: "play", flag: "--control", kind: .value(placeholder: "CTL", check: ValueRules.device)),
        Key(command: "play", flag: "--name", kind: .value(placeholder: "NAME", check: ValueRules.playerName)),
        Key(command: "play", flag: "--volume", kind: .value(placeholder: "0 to 1", check: ValueRules.volume)),
        Key(command: "play", flag: "--loop", kind: choice(LoopMode.allCases.map(\.rawValue))),
        Key(command: "play", flag: "--shuffle", kind: .toggle),
        Key(command: "run", flag: "--category", kind: choice(Commands.categories, placeholder: "CATEGORY")),
        Key(command: "run", flag: "--mode", kind: choice(Commands.modes, placeholder: "MODE")),
        Key(command: "run", flag: "--mix", kind: .toggle),
        Key(command: "run", flag: "--duck", kind: .toggle),
        Key(command: "run", flag: "--interrupt-spoken", kind: .toggle),
        Key(command: "run", flag: "--notify-others", kind: .toggle),
        Key(command: "run", flag: "--verbose", kind: .toggle),
        Key(command: "status", flag: "--json", kind: .toggle),
        Key(command: "route", flag: "--control", kind: .value(placeholder: "CTL", check: ValueRules.device)),
    ]

    /// The valid defaults of a configuration file, by key name.
    struct Values {
        var byName: [String: String] = [:]
        /// `PATH:LINE: reason`, in line order.
        var problems: [String] = []
    }

    /// Reads `config`: its syntax problems, unknown keys and bad values become problems; the rest
    /// are the defaults. A key set twice keeps its first value (as outputs do).
    static func read(_ config: ConfigFile) -> Values {
        var values = Values()
        var problems: [(line: Int, text: String)] = []
        var lines: [String: Int] = [:]
        for entry in config.entries where !entry.key.hasPrefix("output.") {
            guard let key = keys.first(where: { $0.name == entry.key }) else {
                problems.append((entry.line, config.problem(entry, "unknown setting \(Excerpt.quoted(entry.key)) (mprisd help config lists them)")))
                continue
            }
            if let first = lines[key.name] {
                problems.append((entry.line, config.problem(entry, "\(key.name) is set twice; line \(first) counts")))
                continue
            }
            switch key.kind {
            case .value(_, let check):
                if let reason = check(entry.value) {
                    problems.append((entry.line, config.problem(entry, "\(key.name): \(reason)")))
                    continue
                }
                values.byName[key.name] = entry.value
            case .toggle:
                guard let on = boolean(entry.value) else {
                    problems.append((entry.line, config.problem(entry, "\(key.name) takes true or false, not \(Excerpt.quoted(entry.value))")))
                    continue
                }
                values.byName[key.name] = on ? "true" : "false"
            }
            lines[key.name] = entry.line
        }
        // The parser's own problems carry their line numbers in the text; keep everything in file order.
        let syntax = config.problems.map { (line: lineNumber(of: $0, path: config.path), text: $0) }
        values.problems = config.brief((problems + syntax).sorted { $0.line < $1.line }.map(\.text))
        return values
    }

    /// The user's file, read and checked.
    static func load() -> Values {
        read(ConfigFile.load())
    }

    /// Writes each problem as one line on standard error; under systemd with the warning priority
    /// (`<4>`), which journald turns into the entry's level, as the daemon's log does.
    static func report(_ values: Values) {
        let prefix = getenv("JOURNAL_STREAM") != nil ? "<4>" : ""
        for problem in values.problems { Output.error(prefix + problem) }
    }

    /// `command`'s arguments with the defaults of `values` put in front, for each flag that is not
    /// given (before any `--`); `--no-FLAG` switches are taken out, cancelling their default.
    static func apply(_ values: Values, command: String, to arguments: inout Arguments) {
        var given = arguments.remaining
        var rest: [String] = []
        if let dashes = given.firstIndex(of: "--") {
            rest = Array(given[dashes...])
            given.removeSubrange(dashes...)
        }
        var defaults: [String] = []
        for key in keys where key.command == command {
            switch key.kind {
            case .toggle:
                let negation = "--no-" + key.flag.dropFirst(2)
                if given.contains(negation) {
                    given.removeAll { $0 == negation }
                } else if values.byName[key.name] == "true", !given.contains(key.flag) {
                    defaults.append(key.flag)
                }
            case .value:
                guard let value = values.byName[key.name] else { continue }
                if given.contains(where: { $0 == key.flag || $0.hasPrefix(key.flag + "=") }) { continue }
                defaults.append(key.flag + "=" + value)
            }
        }
        arguments = Arguments(defaults + given + rest)
    }

    // MARK: Help

    /// The lines `--help` of `command` ends with: its keys.
    static func helpSection(for command: String) -> String {
        let own = keys.filter { $0.command == command }
        guard !own.isEmpty else { return "" }
        let width = own.map { $0.name.count + 3 + $0.valueText.count }.max() ?? 0
        let lines = own.map { key -> String in
            let setting = "\(key.name) = \(key.valueText)"
            let padding = String(repeating: " ", count: width - setting.count + 2)
            if case .toggle = key.kind {
                return "  \(setting)\(padding)\(key.flag) (--no-\(key.flag.dropFirst(2)) undoes it)"
            }
            return "  \(setting)\(padding)\(key.flag)"
        }
        return """


            Defaults ($XDG_CONFIG_HOME/mprisd/config; a flag given here wins):
            \(lines.joined(separator: "\n"))
            """
    }

    /// The overview's last line: where the defaults are described.
    static let overviewNote = "\nDefaults for every flag: $XDG_CONFIG_HOME/mprisd/config (mprisd help config)."

    /// `mprisd help config`: the file, every key, and the outputs.
    static var configHelp: String {
        let sections = ["daemon", "play", "run", "status", "route"].map { command -> String in
            keys.filter { $0.command == command }.map { "  \($0.name) = \($0.valueText)" }.joined(separator: "\n")
        }
        return """
            Configuration: $XDG_CONFIG_HOME/mprisd/config (default ~/.config/mprisd/config)

            One 'key = value' per line; '#' starts a comment. Each key is the default of one
            flag, COMMAND.FLAG; a flag given on the command line wins, and --no-FLAG undoes a
            switch turned on here. Switches take true or false (also yes/no, on/off, 1/0).
            A bad line is reported as PATH:LINE: reason on standard error and skipped; the
            command still runs with the rest. Nothing in the file is executed.

            Keys:
            \(sections.joined(separator: "\n"))

            Outputs to pick with 'mprisd route use ID':
              output.ID = PCM
              output.ID.name = NAME
              output.ID.type = lineOut|usbAudio|hdmi|headphones|speaker

            Example:
              play.device = hw:CARD=PCH,DEV=0
              play.volume = 0.6
              run.duck = true
              output.usb-dac = hw:CARD=DAC,DEV=0
            """
    }

    // MARK: Values

    static func boolean(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "yes", "on", "1": true
        case "false", "no", "off", "0": false
        default: nil
        }
    }

    /// Why `text` is not true or false (also yes/no, on/off, 1/0); nil when it is one.
    static func switchValue(_ text: String) -> String? {
        boolean(text) == nil ? "takes true or false, not \(Excerpt.quoted(text))" : nil
    }

    /// One of `allowed`, shown as `a|b|c` unless a `placeholder` reads better.
    private static func choice(_ allowed: [String], placeholder: String? = nil) -> Key.Kind {
        .value(placeholder: placeholder ?? allowed.joined(separator: "|")) { text in
            allowed.contains(text) ? nil : "\(Excerpt.quoted(text)) is not one of \(allowed.joined(separator: ", "))"
        }
    }

    /// The `LINE` of a `PATH:LINE: reason` problem (0 if it has none).
    private static func lineNumber(of problem: String, path: String) -> Int {
        Int(problem.dropFirst(path.count + 1).prefix { $0.isNumber }) ?? 0
    }
}
