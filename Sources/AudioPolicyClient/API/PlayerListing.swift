import FoundationEssentials
import Posix

/// Every MPRIS player the daemon knows, in the order the arbiter ranks them (`Players()`,
/// `mprisd players --json`): the first one with `active` set is the one the media keys and the
/// headset act on. A stable JSON document; times are seconds since 1970 (UTC).
public struct PlayerListing: Codable, Sendable, Equatable {
    public struct Player: Codable, Sendable, Equatable {
        /// `org.mpris.MediaPlayer2.mpv`.
        public var busName: String
        /// The unique name owning it (`:1.42`).
        public var owner: String
        /// `Playing`, `Paused` or `Stopped`, as the player last said.
        public var status: String
        /// 1 for the active player, 2 for the next, …; nil for a player in no audio context
        /// (stopped, never seen playing, ignored), which is never chosen.
        public var rank: Int?
        public var active: Bool
        public var pinned: Bool
        /// Why it is where it is: `playing since 14:02:11`, `paused by the user at …`,
        /// `paused by session 3 (mprisd run) at …`, `stopped`, `ignored by rule 'firefox'`.
        public var reason: String
        /// When the reason began (seconds since 1970), if it has a time.
        public var since: Double?
        /// The ignore rule that matched, if any.
        public var ignoredBy: String?
        /// When its audio-server streams went (seconds since 1970), while they are gone and
        /// count: it had one since it last started playing and the server is followed. Such a
        /// player leaves its audio context after `PlayerRanking.streamsGoneLimit` (ten minutes),
        /// and its `reason` then says so. Absent otherwise, and from a daemon older than this field.
        public var streamsGoneSince: Double?
        /// Whether it has playback streams on the audio server now (those of its process tree);
        /// absent while unknown: no server followed, or its process not known yet.
        public var hasStreams: Bool?

        public init(busName: String, owner: String, status: String, rank: Int?, active: Bool, pinned: Bool,
                    reason: String, since: Double?, ignoredBy: String?, streamsGoneSince: Double? = nil,
                    hasStreams: Bool? = nil) {
            self.busName = busName
            self.owner = owner
            self.status = status
            self.rank = rank
            self.active = active
            self.pinned = pinned
            self.reason = reason
            self.since = since
            self.ignoredBy = ignoredBy
            self.streamsGoneSince = streamsGoneSince
            self.hasStreams = hasStreams
        }
    }

    public var players: [Player]

    public init(players: [Player]) { self.players = players }

    /// The active player, if any.
    public var active: Player? { players.first { $0.active } }

    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        // Plain strings, numbers and booleans: encoding cannot fail.
        guard let data = try? encoder.encode(self) else { return "{\"players\":[]}" }
        return String(decoding: data, as: UTF8.self)
    }

    public static func decode(json: String) throws -> PlayerListing {
        try JSONDecoder().decode(PlayerListing.self, from: Data(json.utf8))
    }

    /// One line per player for a terminal: `* 1 org.mpris.MediaPlayer2.mpv  Playing  playing since …`
    /// (`*` marks the active one, `-` a player with no rank).
    public func text() -> String {
        guard !players.isEmpty else { return "no players" }
        let nameWidth = players.map(\.busName.count).max() ?? 0
        return players.map { player in
            let mark = player.active ? "*" : " "
            let rank = player.rank.map(String.init) ?? "-"
            let name = player.busName.padded(toLength: nameWidth)
            let status = player.status.padded(toLength: 7)
            return "\(mark) \(rank) \(name)  \(status)  \(player.reason)"
        }.joined(separator: "\n")
    }
}
