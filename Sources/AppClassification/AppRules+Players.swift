import SessionCore
import SystemContext

/// Rules for ordinary MPRIS players: `player NAME = spokenAudio` marks a podcast or audiobook
/// player, whose session is then in mode `spokenAudio` — a navigation or speech prompt pauses it
/// for as long as it speaks instead of ducking it (G-SCN-NAV, G-APP-NAV). `player NAME = playback`
/// (or `media`, `music`) says the opposite, overriding the player's metadata (G-CAT-SEMANTIC: the
/// user knows what the player plays).
///
///     player mpv = spokenAudio                # the bus name org.mpris.MediaPlayer2.mpv[.instance…]
///     player "GNOME Podcasts" = playback spokenAudio   # or its Identity
///     player vlc = music                       # never spoken audio, whatever its metadata says
///
/// Kept apart from the stream rules (`Rule`): a player rule never classifies a stream, and it can
/// only choose between the two modes of a player's session (players are non-mixing playback,
/// design.md), so it takes no other class, category or option.
extension AppRules {
    /// One `player NAME = …` line.
    public struct PlayerRule: Sendable, Hashable {
        public var line: Int
        /// Matched without regard to case against the bus name's player part and the `Identity`.
        public var name: String
        /// Whether the player is spoken audio (mode `spokenAudio`) or plain playback.
        public var spokenAudio: Bool

        public init(line: Int, name: String, spokenAudio: Bool) {
            self.line = line
            self.name = name
            self.spokenAudio = spokenAudio
        }

        /// Whether the player owning `busName` (`org.mpris.MediaPlayer2.NAME[.instance…]`), with
        /// `identity` (its `org.mpris.MediaPlayer2.Identity`, nil while unknown), is the rule's.
        public func matches(busName: String, identity: String?) -> Bool {
            let wanted = name.lowercased()
            if PlayerRule.playerPart(of: busName).lowercased() == wanted { return true }
            return identity.map { $0.lowercased() == wanted } ?? false
        }

        /// `org.mpris.MediaPlayer2.vlc.instance7389` → `vlc`: the prefix goes, and so does a last
        /// element starting with `instance` (the MPRIS spec's suffix for a second instance; Firefox
        /// writes `instance_1_23`). A name without the prefix is returned unchanged.
        public static func playerPart(of busName: String) -> String {
            let prefix = "org.mpris.MediaPlayer2."
            guard busName.hasPrefix(prefix) else { return busName }
            var elements = busName.dropFirst(prefix.count).split(separator: ".", omittingEmptySubsequences: false)
            if elements.count > 1, let last = elements.last, last.hasPrefix("instance") { elements.removeLast() }
            return elements.joined(separator: ".")
        }
    }

    /// The first player rule for the player owning `busName` with `identity`.
    public func playerRule(busName: String, identity: String?) -> PlayerRule? {
        playerRules.first { $0.matches(busName: busName, identity: identity) }
    }

    /// Parses a `player NAME = ACTION` line's tokens after `player`.
    static func parsePlayerRule(_ tokens: ArraySlice<Token>, line: Int) -> LineOutcome {
        guard let equals = tokens.firstIndex(of: .equals) else {
            return .problem("expected 'player NAME = spokenAudio'")
        }
        let names = tokens[..<equals]
        guard let name = names.first, !name.text.isEmpty else { return .problem("player needs a name before '='") }
        guard names.count == 1 else {
            return .problem("player takes one name; quote one with spaces: player \"\(Excerpt.shown(names.map(\.text).joined(separator: " ")))\"")
        }
        let action = tokens[(equals + 1)...]
        if let quoted = action.first(where: { if case .word = $0 { false } else { true } }) {
            return .problem("\(Excerpt.quoted(quoted.text)) after '=': expected plain words")
        }
        switch action.map(\.text) {
        case ["spokenAudio"], ["playback", "spokenAudio"]:
            return .playerRule(PlayerRule(line: line, name: name.text, spokenAudio: true))
        case ["playback"], ["playback", "default"], ["media"], ["music"]:
            return .playerRule(PlayerRule(line: line, name: name.text, spokenAudio: false))
        case []:
            return .problem("nothing after '='; expected spokenAudio, playback spokenAudio or playback")
        default:
            let got = Excerpt.quoted(action.map(\.text).joined(separator: " "))
            return .problem("a player is non-mixing playback: expected spokenAudio, playback spokenAudio or playback, got \(got)")
        }
    }
}
