import AppClassification
import AudioPolicyClient
import AudioPolicyDaemon
import FoundationEssentials

/// `mprisd apps --json`: the apps the daemon reports and the rules file as the daemon reads it,
/// for scripts. Stable like the status document: fields are only added.
///
/// ```
/// {
///   "apps" : [ … PolicyStatus.App, present ones first … ],
///   "daemon" : true,
///   "rulesFile" : {
///     "path" : "/home/u/.config/mprisd/apps",
///     "problems" : [ "/home/u/.config/mprisd/apps:4: 'bogus' is neither a class … nor a category …" ],
///     "rules" : [ { "action" : "call", "line" : 2, "match" : "app", "name" : "ZOOM VoiceEngine" } ]
///   }
/// }
/// ```
/// `apps` is left out when no daemon runs (`daemon` false) or the daemon reports no apps field
/// (older than issue 15).
struct AppsDocument: Codable, Sendable, Hashable {
    struct Rule: Codable, Sendable, Hashable {
        var line: Int
        /// `app`, `binary` or `flatpak`.
        var match: String
        var name: String
        /// The words after `=`: a class, or a category with its mode and options.
        var action: String
    }

    struct RulesFile: Codable, Sendable, Hashable {
        var path: String
        var rules: [Rule]
        /// Every skipped line as `PATH:LINE: reason`.
        var problems: [String]
    }

    var daemon: Bool
    var apps: [PolicyStatus.App]?
    var rulesFile: RulesFile

    init(daemon: Bool, apps: [PolicyStatus.App]?, rules: AppRules) {
        self.daemon = daemon
        self.apps = apps
        rulesFile = RulesFile(path: rules.path,
                              rules: rules.rules.map { Rule(line: $0.line, match: $0.match.kind, name: $0.match.name,
                                                            action: $0.action.text) },
                              problems: rules.problems)
    }

    /// Sorted keys and indentation, as `PolicyStatus.json()`.
    func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        // Only strings, integers and booleans: encoding cannot fail.
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
