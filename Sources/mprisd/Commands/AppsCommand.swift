import AppClassification
import AudioPolicyDaemon
import Posix
import SystemContext

extension Commands {
    static let apps = Command(
        name: "apps",
        summary: "list the apps the daemon classified, or write a rule for one",
        help: """
            Usage: mprisd apps [list] [--json]
                   mprisd apps set app|binary|flatpak NAME CLASS
                   mprisd apps set app|binary|flatpak NAME CATEGORY [MODE] [OPTION...]
                   mprisd apps unset app|binary|flatpak NAME

            Lists the apps the policy daemon sees on the audio server that know nothing of
            mprisd: what each was taken for (CLASS), why (a line of the rules file, its
            media.role, the built-in name table, or the default), its session and what the
            daemon does to it now. Then the rules file and the lines the daemon skips, with
            their numbers. Without a daemon it lists the rules and says so (exit status 69).

            'set' writes a rule to $XDG_CONFIG_HOME/mprisd/apps, replacing the rule for the
            same app in place (comments and other lines stay); 'unset' removes it. The file is
            replaced atomically, edits at once are made one after the other, and a running
            daemon reloads it at once. A rule matches the
            application name (without regard to case), the binary or the Flatpak app id, as
            'mprisd apps' shows them; the first rule that matches an app wins.

            Classes: call, prompt, screenReader, systemSound (or alert), game, media (or
            music), mixing, ignore. Or a category (ambient, soloAmbient, playback, record,
            playAndRecord, multiRoute, audioProcessing), then a mode and options as for
            'mprisd run'.

            Examples:
              mprisd apps set app "ZOOM VoiceEngine" call
              mprisd apps set binary zoom ignore
              mprisd apps set flatpak us.zoom.Zoom playAndRecord voiceChat
              mprisd apps unset binary zoom

            Options:
              --json      print a JSON document instead of the tables
              -h, --help  show this help
            """,
        run: { arguments in
            let json = try arguments.popSwitch("--json")
            let action = try arguments.popOperand() ?? "list"
            switch action {
            case "list":
                try arguments.expectEnd()
                return AppsProgram.list(json: json)
            case "set", "unset":
                if json { throw UsageError("--json is for 'apps list' only") }
                let match = try popMatch(&arguments, action: action)
                var words: [String] = []
                while let word = try arguments.popOperand() { words.append(word) }
                try arguments.expectEnd()
                if action == "unset" {
                    if let extra = words.first { throw UsageError("apps unset takes no class, not also \(Excerpt.quoted(extra))") }
                    return AppsProgram.unset(match)
                }
                guard !words.isEmpty else { throw UsageError("apps set \(match.kind) NAME needs a class or a category") }
                return AppsProgram.set(match, to: words)
            default:
                throw UsageError("apps takes 'list', 'set' or 'unset', not \(Excerpt.quoted(action))")
            }
        })

    /// `app|binary|flatpak NAME` of `apps set` and `apps unset`.
    private static func popMatch(_ arguments: inout Arguments, action: String) throws(UsageError) -> AppRules.Rule.Match {
        let kinds = AppRules.Rule.Match.kinds.joined(separator: ", ")
        guard let kind = try arguments.popOperand() else { throw UsageError("apps \(action) needs \(kinds), then a name") }
        guard let name = try arguments.popOperand() else {
            guard AppRules.Rule.Match.kinds.contains(kind) else {
                throw UsageError("apps \(action) takes \(kinds), not \(Excerpt.quoted(kind))")
            }
            throw UsageError("apps \(action) \(kind) needs a name")
        }
        guard let match = AppRules.Rule.Match(kind: kind, name: name) else {
            throw UsageError("apps \(action) takes \(kinds), not \(Excerpt.quoted(kind))")
        }
        guard AppRules.Rule.Match.isWritable(name) else {
            throw UsageError("\(kind) takes a name without '\"' or control characters, not \(Excerpt.quoted(name))")
        }
        return match
    }
}
