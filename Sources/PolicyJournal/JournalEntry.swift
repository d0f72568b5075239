import DBus

/// One change the daemon made to another program's state, written down before it is made and
/// crossed out once undone (`ChangeJournal`), so that no crash of the daemon can keep it.
///
/// The program is named twice: by its well-known bus name and by the unique name that owned it
/// when the change was made. A replay acts only while the two still belong together — a player
/// that exited (or exited and started again) has nothing of ours left to undo.
public struct JournalEntry: Sendable, Hashable {
    public enum Change: Sendable, Hashable {
        /// Its `Volume` was lowered (ducked) from `found`, the user's value, to `set`.
        case volume(found: Double, set: Double)
        /// The policy paused it and may resume it once `cause` is gone: the unique bus name whose
        /// session interrupted it, nil for a system condition (the screen lock).
        case pause(cause: String?)
    }

    /// What kind of change, one entry of each kind per player at most.
    public enum Kind: Sendable, Hashable {
        case volume
        case pause
    }

    /// The player's well-known name (`org.mpris.MediaPlayer2.mpv`).
    public var player: String
    /// The unique name that owned `player` when the change was made.
    public var owner: String
    public var change: Change

    public init(player: String, owner: String, change: Change) {
        self.player = player
        self.owner = owner
        self.change = change
    }

    public var kind: Kind {
        switch change {
        case .volume: .volume
        case .pause: .pause
        }
    }

    /// Whether `other` is about the same player instance and the same kind of change.
    func replaces(_ other: JournalEntry) -> Bool {
        player == other.player && owner == other.owner && kind == other.kind
    }
}

// MARK: The line format

extension JournalEntry {
    /// One line: `volume PLAYER OWNER FOUND SET` or `pause PLAYER OWNER CAUSE|-`. Bus names
    /// contain no white space, and volumes are written in Swift's shortest exact form, so a value
    /// read back is the value written.
    var line: String {
        switch change {
        case .volume(let found, let set): "volume \(player) \(owner) \(found) \(set)"
        case .pause(let cause): "pause \(player) \(owner) \(cause ?? "-")"
        }
    }

    /// Parses `line`; nil for anything else (a line from a newer version, a damaged file).
    init?(line: Substring) {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 4, NameSyntax.isBusName(String(fields[1])), NameSyntax.isBusName(String(fields[2])) else {
            return nil
        }
        let player = String(fields[1])
        let owner = String(fields[2])
        switch (fields[0], fields.count) {
        case ("volume", 5):
            guard let found = Self.volume(fields[3]), let set = Self.volume(fields[4]) else { return nil }
            self.init(player: player, owner: owner, change: .volume(found: found, set: set))
        case ("pause", 4):
            guard fields[3] == "-" || NameSyntax.isBusName(String(fields[3])) else { return nil }
            self.init(player: player, owner: owner, change: .pause(cause: fields[3] == "-" ? nil : String(fields[3])))
        default:
            return nil
        }
    }

    /// A volume as a player can hold it: the rule every volume read from a player follows.
    private static func volume(_ text: Substring) -> Double? {
        Double(text).flatMap(PlayerVolume.sane)
    }
}
