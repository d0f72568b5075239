import DBus

/// The names of the MPRIS D-Bus interface specification (2.2), declared once: the endpoint an app
/// exports and the daemon that finds and drives other players both speak with these.
public enum MPRISNames {
    /// Every MPRIS player owns a bus name under this prefix (`org.mpris.MediaPlayer2.vlc`).
    public static let busNamePrefix = "org.mpris.MediaPlayer2."
    /// The one object every MPRIS player exports.
    public static let objectPath = ObjectPath(trusted: "/org/mpris/MediaPlayer2")
    /// Identity, `Raise`, `Quit` and the other properties of the application.
    public static let rootInterface = "org.mpris.MediaPlayer2"
    /// Transport controls, `PlaybackStatus`, `Metadata`, `Volume`, `Seeked`.
    public static let playerInterface = "org.mpris.MediaPlayer2.Player"

    /// Whether `name` is an MPRIS player's bus name (`org.mpris.MediaPlayer2.vlc`, also with an
    /// `.instance…` suffix).
    public static func isPlayerName(_ name: String) -> Bool {
        name.hasPrefix(busNamePrefix) && name.count > busNamePrefix.count
    }
}
