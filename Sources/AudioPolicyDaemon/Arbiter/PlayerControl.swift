/// What `mprisd control` asks of the active player (`Control(s action, d value)`).
///
/// Faithful (G-RC-FAITHFUL): `play` plays, `pause` pauses, and a Pause goes only to a player
/// that says it is Playing — a player whose Pause toggles (tidal-hifi#800) is never started by
/// it. `play-pause` sends Pause to a Playing player and Play to any other, never `PlayPause`.
public enum PlayerControl: Sendable, Hashable {
    case play, pause, playPause, next, previous, stop
    /// Seconds, relative (negative: back).
    case seek(Double)
    /// Seconds from the start of the track.
    case position(Double)
    /// Added to the player's `Volume` (0…1 scale; the result is kept at 0 or more).
    case volume(Double)

    /// The actions `Control` accepts, as `mprisd control` spells them.
    public static let actions = ["play", "pause", "play-pause", "next", "previous", "stop", "seek", "position", "volume"]

    /// The actions a media key sends (`KeyPress`): those without a value.
    public static let keyActions = ["play", "pause", "play-pause", "next", "previous", "stop"]

    /// The control `action` names, with `value` for the three that take one; nil for an
    /// unknown action or a value that is not finite (or a negative position).
    public init?(action: String, value: Double) {
        guard value.isFinite else { return nil }
        switch action {
        case "play": self = .play
        case "pause": self = .pause
        case "play-pause": self = .playPause
        case "next": self = .next
        case "previous": self = .previous
        case "stop": self = .stop
        case "seek": self = .seek(value)
        case "position":
            guard value >= 0 else { return nil }
            self = .position(value)
        case "volume": self = .volume(value)
        default: return nil
        }
    }
}
