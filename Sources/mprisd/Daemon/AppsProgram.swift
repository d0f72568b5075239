import AppClassification
import AudioPolicyClient
import AudioPolicyDaemon
import FoundationEssentials
import Posix
import SystemContext

/// `mprisd apps`: the apps without our API as the running daemon classified them (from
/// `GetStatus`, as `mprisd status` reads it), then the user's rules file as the daemon reads it —
/// every rule with its line, every skipped line with its number and why. The rules are read here,
/// with the daemon's own parser (`AppRules`), so they show even when no daemon runs.
enum AppsProgram {
    static func list(json: Bool) -> Int32 {
        let rules = AppRules.load()
        let fetched = StatusProgram.fetch(command: "apps")
        let status = try? fetched.get()
        if json {
            Output.out(AppsDocument(daemon: status != nil, apps: status.flatMap { $0.apps == nil ? nil : $0.appsPresentFirst },
                                      rules: rules).json())
        } else {
            var lines: [String] = []
            if let status { lines += status.appsSection(colour: StatusProgram.wantsColour) + [""] }
            lines += rulesText(rules, colour: StatusProgram.wantsColour)
            Output.out(lines.joined(separator: "\n"))
        }
        if case .failure(let failure) = fetched {
            Output.error(failure.message)
            return failure.exitStatus
        }
        return ExitStatus.success
    }

    /// `Rules  PATH`, the rules as a table (or `none`), then `Problems` when lines are skipped.
    static func rulesText(_ rules: AppRules, colour: Bool) -> [String] {
        let heading = TextTable.paint(TextTable.Cell("Rules", .bold), colour: colour)
        var lines = [heading + "  " + TerminalText.sanitized(rules.path)]
        if rules.rules.isEmpty {
            lines.append("  none")
        } else {
            let header = ["LINE", "MATCH", "ACTION"].map { TextTable.Cell($0, .bold) }
            let rows = rules.rules.map { rule in
                [TextTable.Cell(String(rule.line)), TextTable.Cell(rule.match.text), TextTable.Cell(rule.action.text)]
            }
            lines += TextTable(rows: [header] + rows, indent: 2).lines(colour: colour)
        }
        if !rules.problems.isEmpty {
            lines.append("")
            lines.append(TextTable.paint(TextTable.Cell("Problems", .bold), colour: colour))
            lines += rules.briefProblems.map { "  " + TerminalText.sanitized($0) }
        }
        return lines
    }

    // MARK: set and unset

    /// `mprisd apps set MATCH ACTION…`.
    static func set(_ match: AppRules.Rule.Match, to words: [String]) -> Int32 {
        do {
            _ = try AppRules.rule(match, words)
        } catch {
            Output.error("mprisd apps: \(error)")
            return ExitStatus.usage
        }
        return edit("set") { text, path throws(AppRules.EditError) in
            try AppRules.setting(match, to: words, in: text, path: path)
        }
    }

    /// `mprisd apps unset MATCH`.
    static func unset(_ match: AppRules.Rule.Match) -> Int32 {
        edit("unset") { text, path throws(AppRules.EditError) in
            try AppRules.unsetting(match, in: text, path: path)
        }
    }

    /// Reads the apps file, applies `change` and replaces the file with the result, all under
    /// the apps file's lock (`AppsFile.whileLocked`: concurrent edits each see the one before);
    /// says what changed. Any failure leaves the file as it was.
    private static func edit(_ action: String,
                             _ change: (String, String) throws(AppRules.EditError) -> AppRules.Edit) -> Int32 {
        let path = UserDirectories.appsFile
        do {
            let target = try AppsFile.writablePath(path)
            return try AppsFile.whileLocked(target) { edit(path, target, change) }
        } catch {
            Output.error("mprisd apps: \(error); not changed")
            return ExitStatus.failure
        }
    }

    private static func edit(_ path: String, _ target: String,
                             _ change: (String, String) throws(AppRules.EditError) -> AppRules.Edit) -> Int32 {
        let text: String
        do {
            text = try SettingsFile.read(path) ?? ""
        } catch {
            Output.error("mprisd apps: \(error); not changed")
            return ExitStatus.failure
        }
        let edit: AppRules.Edit
        do {
            edit = try change(text, path)
        } catch {
            Output.error("mprisd apps: \(error)")
            return ExitStatus.failure
        }
        do {
            try StateFile(path: target).replace(contents: edit.text)
        } catch {
            Output.error("mprisd apps: \(error)")
            return ExitStatus.failure
        }
        if let written = edit.written {
            let how = edit.replacedLine.map { "replaced line \($0)" } ?? "added"
            Output.out("\(path):\(written.line): \(written.text) (\(how))")
        }
        let removed = edit.removedLines.map(String.init).joined(separator: ", ")
        if !edit.removedLines.isEmpty {
            Output.out("\(path): removed line\(edit.removedLines.count == 1 ? "" : "s") \(removed)")
        }
        // The rest of the file as the daemon will read it: the user should know what it skips.
        for problem in AppRules(parsing: edit.text, path: path).briefProblems {
            Output.error("mprisd apps: \(problem)")
        }
        return ExitStatus.success
    }
}
