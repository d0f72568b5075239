import DBus
import PolicyJournal
import RemoteControl

/// The few `org.mpris.MediaPlayer2.Player` properties the policy needs, as read with `GetAll` or
/// changed by `PropertiesChanged`. nil: not (yet) known — some players leave properties out of
/// `GetAll` (field notes: Firefox omits `Volume`).
struct MPRISPlayerProperties: Sendable, Hashable {
    /// `Playing`, `Paused` or `Stopped` (anything else counts as not playing).
    var playbackStatus: String?
    var canPause: Bool?
    var canPlay: Bool?
    var volume: Double?
    /// The current track's `xesam:genre` (`Metadata`): empty when the metadata has none, nil
    /// while no metadata was read. Whether the player is spoken audio hangs on it
    /// (`SpokenAudioMetadata`).
    var genres: [String]?

    init(playbackStatus: String? = nil, canPause: Bool? = nil, canPlay: Bool? = nil, volume: Double? = nil,
         genres: [String]? = nil) {
        self.playbackStatus = playbackStatus
        self.canPause = canPause
        self.canPlay = canPlay
        self.volume = volume
        self.genres = genres
    }

    /// The properties in an `a{sv}` (GetAll's reply, PropertiesChanged's second argument). Values
    /// of the wrong type are ignored, not trusted: the player is not ours.
    init(dictionary value: DBusValue) {
        guard case .dictionary(.string, .variant, let entries) = value else { return }
        for entry in entries {
            guard case .string(let name) = entry.key, case .variant(let inner) = entry.value else { continue }
            switch (name, inner) {
            case ("PlaybackStatus", .string(let status)): playbackStatus = status
            case ("CanPause", .boolean(let flag)): canPause = flag
            case ("CanPlay", .boolean(let flag)): canPlay = flag
            case ("Volume", .double(let level)): volume = Self.saneVolume(level)
            case ("Metadata", .dictionary(.string, .variant, _)): genres = Self.genres(inMetadata: inner)
            default: continue
            }
        }
    }

    /// `level` if it is a volume a player can really have (`PlayerVolume`, the journal's rule
    /// too); nil — not known — otherwise.
    static func saneVolume(_ level: Double) -> Double? { PlayerVolume.sane(level) }

    /// `PropertiesChanged(s interface, a{sv} changed, as invalidated)` for the player interface;
    /// nil for another interface or a malformed body.
    init?(propertiesChanged body: [DBusValue]) {
        guard body.count >= 2, case .string(let interface) = body[0],
              interface == MPRISNames.playerInterface else { return nil }
        self.init(dictionary: body[1])
    }

    /// Takes every value `change` knows.
    mutating func merge(_ change: MPRISPlayerProperties) {
        if let status = change.playbackStatus { playbackStatus = status }
        if let flag = change.canPause { canPause = flag }
        if let flag = change.canPlay { canPlay = flag }
        if let volume = change.volume { self.volume = volume }
        if let genres = change.genres { self.genres = genres }
    }

    /// At most this many genres of a track are kept, each cut to `genreLengthLimit` characters:
    /// a genre is a word or two, and the player is not ours to trust.
    static let genreLimit = 16
    static let genreLengthLimit = 100

    /// `xesam:genre` of a `Metadata` value (`a{sv}`). The spec says `as`; mpv-mpris 0.7.1 and
    /// DeaDBeeF send one `s`, so both are read. Metadata without a genre has none (`[]`).
    static func genres(inMetadata metadata: DBusValue) -> [String] {
        guard case .dictionary(.string, .variant, let entries) = metadata,
              let entry = entries.first(where: { $0.key == .string("xesam:genre") }),
              case .variant(let value) = entry.value else { return [] }
        let found: [String]
        switch value {
        case .string(let genre): found = [genre]
        case .array(.string, let elements):
            found = elements.prefix(genreLimit).compactMap { if case .string(let genre) = $0 { genre } else { nil } }
        default: found = []
        }
        return found.map { String($0.prefix(genreLengthLimit)) }
    }
}
