import AudioServer

/// One change the daemon made to an audio-server stream, written down before it is made and
/// crossed out once undone (`ChangeJournal`, the same file as the MPRIS changes).
///
/// A stream is named by the server instance (`ServerIdentity.cookie`: a restarted server reuses
/// indices), its sink-input index, and its restore key (`StreamRestoreKey`): the server's restore
/// database (PulseAudio's module-stream-restore, WirePlumber's restore-stream) remembers a
/// stream's volume and mute under that key when the stream ends, so a change that outlived its
/// stream is repaired on the next stream of the same key.
public struct StreamJournalEntry: Sendable, Hashable {
    public enum Change: Sendable, Hashable {
        /// Its volume was lowered (ducked) from `found`, the user's value, to `set`.
        case volume(found: ChannelVolume, set: ChannelVolume)
        /// It was muted (interrupted); it was not muted before.
        case mute
    }

    public enum Kind: Sendable, Hashable {
        case volume
        case mute
    }

    public var cookie: UInt32
    public var index: UInt32
    public var key: StreamRestoreKey
    public var change: Change

    public init(cookie: UInt32, index: UInt32, key: StreamRestoreKey, change: Change) {
        self.cookie = cookie
        self.index = index
        self.key = key
        self.change = change
    }

    public var kind: Kind {
        switch change {
        case .volume: .volume
        case .mute: .mute
        }
    }

    /// The playback stream it is about.
    public var stream: StreamID { StreamID(.playback, index) }

    /// Whether `other` is about the same stream and the same kind of change.
    func replaces(_ other: StreamJournalEntry) -> Bool {
        cookie == other.cookie && index == other.index && kind == other.kind
    }
}

// MARK: The line format

extension StreamJournalEntry {
    /// `streamvolume COOKIE INDEX KEY FOUND SET` (each volume a comma-separated list of raw
    /// `pa_volume_t` channel values) or `streammute COOKIE INDEX KEY`.
    var line: String {
        switch change {
        case .volume(let found, let set):
            "streamvolume \(cookie) \(index) \(key.encoded) \(Self.text(found)) \(Self.text(set))"
        case .mute:
            "streammute \(cookie) \(index) \(key.encoded)"
        }
    }

    /// Parses `line`; nil for anything else.
    init?(line: Substring) {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 4, let cookie = UInt32(fields[1]), let index = UInt32(fields[2]),
              let key = StreamRestoreKey(encoded: fields[3]) else { return nil }
        switch (fields[0], fields.count) {
        case ("streamvolume", 6):
            guard let found = Self.volume(fields[4]), let set = Self.volume(fields[5]),
                  found.channels.count == set.channels.count else { return nil }
            self.init(cookie: cookie, index: index, key: key, change: .volume(found: found, set: set))
        case ("streammute", 4):
            self.init(cookie: cookie, index: index, key: key, change: .mute)
        default:
            return nil
        }
    }

    private static func text(_ volume: ChannelVolume) -> String {
        volume.channels.map(String.init).joined(separator: ",")
    }

    /// 1…32 channels (`PA_CHANNELS_MAX`), each a valid `pa_volume_t`.
    private static func volume(_ text: Substring) -> ChannelVolume? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard (1...32).contains(parts.count) else { return nil }
        var channels: [UInt32] = []
        for part in parts {
            guard let value = UInt32(part), value <= ChannelVolume.max else { return nil }
            channels.append(value)
        }
        return ChannelVolume(channels: channels)
    }
}
