import DBus
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

    init(playbackStatus: String? = nil, canPause: Bool? = nil, canPlay: Bool? = nil, volume: Double? = nil) {
        self.playbackStatus = playbackStatus
        self.canPause = canPause
        self.canPlay = canPlay
        self.volume = volume
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
            default: continue
            }
        }
    }

    /// The loudest `Volume` believed. MPRIS allows more than 1.0 (amplification), but a player
    /// claiming more than this is wrong or hostile, and a ducking computed from it would be too.
    static let maximumVolume = 10.0

    /// `level` if it is a volume a player can really have (finite, 0…`maximumVolume`); nil — not
    /// known — otherwise. The one check for every way a volume is read (`GetAll`, `Get`,
    /// `PropertiesChanged`), so nothing is ever set from a value that failed it.
    static func saneVolume(_ level: Double) -> Double? {
        level.isFinite && level >= 0 && level <= maximumVolume ? level : nil
    }

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
    }
}
