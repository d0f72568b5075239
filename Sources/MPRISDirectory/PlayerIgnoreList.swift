import FoundationEssentials
import Posix

/// The players the user never wants the media keys to reach (`daemon.ignore-players`,
/// `--ignore-players NAME,NAME`): an idle browser tab, a notification-sound player.
///
/// A rule is the part of the bus name after `org.mpris.MediaPlayer2.` (`firefox`), or the whole
/// name; it also covers that player's numbered instances (`firefox.instance_1_23`), since
/// browsers and Chromium-based apps add one per process.
public struct PlayerIgnoreList: Sendable, Hashable {
    public private(set) var rules: [String]

    public static let prefix = "org.mpris.MediaPlayer2."

    /// Names that are never players of their own but proxies of another one (`playerctld`
    /// mirrors the player it follows, status included): choosing one would rank the same player
    /// twice and send the keys through a second hop. Always ignored.
    public static let proxies = ["playerctld"]

    /// The rules of a comma-separated list; blanks around names and empty items are dropped.
    public init(_ text: String) {
        self.init(rules: text.split(separator: ",").map { $0.trimmingWhitespace() })
    }

    public init(rules: [String] = []) {
        self.rules = rules.map { $0.hasPrefix(Self.prefix) ? String($0.dropFirst(Self.prefix.count)) : $0 }
            .filter { !$0.isEmpty }
    }

    /// `busName` is a proxy's (`proxies`): not a player of its own.
    public static func isProxy(_ busName: String) -> Bool {
        guard busName.hasPrefix(prefix) else { return false }
        let short = busName.dropFirst(prefix.count)
        return proxies.contains { short == $0 || short.hasPrefix($0 + ".") }
    }

    /// The rule that ignores `busName`, nil if none does.
    public func rule(ignoring busName: String) -> String? {
        guard busName.hasPrefix(Self.prefix) else { return nil }
        let short = busName.dropFirst(Self.prefix.count)
        return (rules + Self.proxies).first { short == $0 || short.hasPrefix($0 + ".") }
    }

    /// Why `text` is not a valid list (for the command line and the config file), nil if it is.
    public static func problem(in text: String) -> String? {
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
        for name in names where !name.isEmpty {
            let valid = name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == ".") }
            if !valid || name.hasPrefix(".") || name.hasSuffix(".") {
                return "'\(name)' is not a player name (letters, digits, _, - and . as in org.mpris.MediaPlayer2.NAME)"
            }
        }
        return nil
    }
}
