import DBus

/// The MPRIS names a foreign player is found and driven by (MPRIS 2.2).
enum ForeignPlayerNames {
    /// Every MPRIS player owns a bus name under this prefix.
    static let busNamePrefix = "org.mpris.MediaPlayer2."
    /// The one object every MPRIS player exports.
    static let objectPath: ObjectPath = {
        // A literal known to be valid: the fallback is never taken.
        (try? ObjectPath("/org/mpris/MediaPlayer2")) ?? .root
    }()
    static let playerInterface = "org.mpris.MediaPlayer2.Player"
    static let propertiesInterface = "org.freedesktop.DBus.Properties"

    static let busDaemon = "org.freedesktop.DBus"
    static let busDaemonPath: ObjectPath = {
        (try? ObjectPath("/org/freedesktop/DBus")) ?? .root
    }()

    /// Whether `name` is an MPRIS player's bus name (`org.mpris.MediaPlayer2.vlc`, also with an
    /// `.instance…` suffix).
    static func isPlayerName(_ name: String) -> Bool {
        name.hasPrefix(busNamePrefix) && name.count > busNamePrefix.count
    }
}
