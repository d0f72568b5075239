/// The well-known bus name of an MPRIS player (`org.mpris.MediaPlayer2.<app>`), and the instance
/// name it falls back to when another process already owns it.
///
/// The instance suffix is `instance<pid>`: a bus-name element must not start with a digit, and
/// playerctl's `-p app` still matches `app.instance…`.
public struct MPRISBusName: Sendable, Hashable, CustomStringConvertible {
    /// The application part, reduced to characters a bus-name element allows.
    public let application: String

    /// Builds the name for `application`; characters outside `[A-Za-z0-9_-]` become `_`, and a
    /// leading digit gets a `_` in front. Throws for an empty name.
    public init(application: String) throws(RemoteControlError) {
        var cleaned = String(application.unicodeScalars.map { scalar -> Character in
            let ok = ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
                || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-"
            return ok ? Character(scalar) : "_"
        })
        guard !cleaned.isEmpty else { throw RemoteControlError("an MPRIS player needs a non-empty name") }
        if let first = cleaned.unicodeScalars.first, ("0"..."9").contains(first) { cleaned = "_" + cleaned }
        self.application = String(cleaned.prefix(200))
    }

    /// `org.mpris.MediaPlayer2.<application>`.
    public var primary: String { MPRISNames.busNamePrefix + application }

    /// The name to use when `primary` is taken: `org.mpris.MediaPlayer2.<application>.instance<pid>`.
    public func instance(pid: Int32) -> String { primary + ".instance\(pid)" }

    public var description: String { primary }
}

/// An error of the remote-control layer, with a message for people.
public struct RemoteControlError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
