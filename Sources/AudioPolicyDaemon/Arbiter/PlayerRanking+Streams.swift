import FoundationEssentials

/// Players whose audio-server streams have been gone for `goneLimit` leave their audio context
/// (issue 16): an idle browser tab that still says Playing or Paused must not hold the keys
/// (brave-browser#47772). Pure: the arbiter says whether each player has playback streams now
/// (`streamsChanged`, from the audio server's inventory) and asks when the next one is due
/// (`nextStreamsDeadline`) and to let the due ones go (`expireStreams`).
///
/// - Only a player seen with a playback stream of its own since it last started playing can
///   have its streams "gone": one that plays straight to ALSA hw, or was never paired (no
///   server, its process unknown, a Flatpak pid that is not ours), is never dropped by this rule.
/// - The clock runs while the server is followed and the player has none of its streams; it
///   stops (and is forgotten) while that is unknown — no server, its process not known yet.
/// - A player paused by the policy (a call, a prompt, the lock) is exempt while paused that way:
///   the interruption holds it in its context, whatever its streams do.
/// - Gone for the limit, it leaves its context as a Stop would, until it says Playing again — or,
///   if it still says Playing, until a stream of its comes back (it is audibly playing then, and
///   no new Playing will ever come to bring it back).
extension PlayerRanking {
    /// Ten minutes: long enough that the user's own pause for a coffee keeps the player on the
    /// keys even when it tears its stream down on pause (as Firefox does), short
    /// enough that a tab forgotten since the morning does not hold them all day.
    public static let streamsGoneLimit: TimeInterval = 600

    /// What the ranking knows of one player's playback streams on the audio server.
    public struct StreamWatch: Sendable, Hashable {
        /// It has playback streams now; nil while unknown (no server, its process not known yet).
        public internal(set) var present: Bool?
        /// It was seen with a playback stream since it last started playing.
        public internal(set) var paired = false
        /// When its last stream went (it had one and has none now); nil otherwise.
        public internal(set) var goneSince: Date?
        /// It left its audio context because its streams had been gone since this time; nil
        /// unless it did (and has not said Playing or Stopped since).
        public internal(set) var left: Date?

        /// It said Playing: paired again only by a stream of this run.
        mutating func started() {
            paired = present == true
            goneSince = nil
            left = nil
        }
    }

    /// Whether `busName` has playback streams on the audio server now (nil: unknown — no server,
    /// or its process not known yet). Only a change counts.
    public mutating func streamsChanged(_ busName: String, present: Bool?, at now: Date) {
        guard var entry = entries[busName], entry.streams.present != present else { return }
        entry.streams.present = present
        switch present {
        case true?:
            entry.streams.paired = true
            entry.streams.goneSince = nil
            if entry.streams.left != nil, entry.isPlaying {
                // Back with a stream while it says Playing: a start, as far as the keys know.
                order += 1
                entry.inContext = true
                entry.startOrder = order
                entry.activeOrder = order
                entry.since = now
                entry.streams.left = nil
            }
        case false?:
            if entry.streams.paired { entry.streams.goneSince = now }
        case nil:
            entry.streams.goneSince = nil
        }
        entries[busName] = entry
    }

    /// When `entry` leaves its context for its streams, if it is on its way to.
    func streamsDeadline(of entry: Entry) -> Date? {
        guard entry.inContext, entry.streams.paired, let gone = entry.streams.goneSince,
              entry.status != "Paused" || entry.pausedBy == nil,
              ignore.rule(ignoring: entry.busName) == nil else { return nil }
        return gone + goneLimit
    }

    /// The earliest time a player leaves its context for its streams; nil when none is on its
    /// way to (then nothing needs to wake up).
    public var nextStreamsDeadline: Date? {
        entries.values.compactMap(streamsDeadline).min()
    }

    /// The players whose streams have been gone for the limit at `now` leave their context;
    /// returns their names (sorted).
    @discardableResult
    public mutating func expireStreams(at now: Date) -> [String] {
        let due = entries.values.filter { entry in streamsDeadline(of: entry).map { $0 <= now } ?? false }
        for var entry in due {
            entry.inContext = false
            entry.streams.left = entry.streams.goneSince
            entries[entry.busName] = entry
        }
        return due.map(\.busName).sorted()
    }
}
