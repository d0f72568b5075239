import SessionCore

/// A rule written back as a line of the apps file — what `mprisd apps set` writes and `mprisd
/// apps` lists: `app "ZOOM VoiceEngine" = call`, `binary zoom = playAndRecord voiceChat`. Reading
/// the line back (`AppRules(parsing:path:)`) gives the same rule.
extension AppRules.Rule.Match {
    /// The words a match is made of in a line and on the command line.
    public static let kinds = ["app", "binary", "flatpak"]

    /// The match named by `kind` (`app`, `binary` or `flatpak`) and `name`; nil for another kind.
    public init?(kind: String, name: String) {
        switch kind {
        case "app": self = .app(name)
        case "binary": self = .binary(name)
        case "flatpak": self = .flatpak(name)
        default: return nil
        }
    }

    /// `app`, `binary` or `flatpak`.
    public var kind: String {
        switch self {
        case .app: "app"
        case .binary: "binary"
        case .flatpak: "flatpak"
        }
    }

    /// The application name, binary or Flatpak id, as written.
    public var name: String {
        switch self {
        case .app(let name), .binary(let name), .flatpak(let name): name
        }
    }

    /// Whether `name` can be written in a line at all: not empty, no `"` (a quoted name cannot
    /// hold one) and no control character (a line break would end the line).
    public static func isWritable(_ name: String) -> Bool {
        !name.isEmpty && !name.unicodeScalars.contains { $0 == "\"" || $0.value < 0x20 || $0.value == 0x7F }
    }

    /// `kind name`, the name bare when it is one plain word, else quoted.
    public var text: String {
        let plain = name.unicodeScalars.allSatisfy { !Self.specialScalars.contains($0) && $0.value > 0x20 && $0.value != 0x7F }
        return kind + " " + (plain && !name.isEmpty ? name : "\"" + name + "\"")
    }

    /// What ends or splits a bare word in a line (`AppRules.tokenize`).
    private static let specialScalars: Set<Unicode.Scalar> = ["\"", "=", "#", " ", "\t"]
}

extension AppRules.Rule.Action {
    /// The words after `=`: a class (`call`), or a category with its mode and options
    /// (`playAndRecord voiceChat`, the mode left out when it is the default).
    public var text: String {
        switch self {
        case .appClass(let appClass): return appClass.rawValue
        case .configuration(let configuration):
            let mode = configuration.mode == .default ? [] : [configuration.mode.rawValue]
            return ([configuration.category.rawValue] + mode + configuration.options.elements.map(\.rawValue))
                .joined(separator: " ")
        }
    }
}

extension AppRules.Rule {
    /// The rule as a line of the file: `MATCH = ACTION`.
    public var text: String { match.text + " = " + action.text }
}
