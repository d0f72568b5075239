import DBus

/// The policy daemon's names on the session bus (design: "Policy daemon").
public enum AudioPolicyNames {
    public static let busName = "org.mprisd.AudioPolicy"
    /// The daemon's one object, where apps `Register`.
    public static let objectPath = ObjectPath(trusted: "/org/mprisd/AudioPolicy")
    /// Every registered session's object lies below this path.
    public static let sessionNamespace = ObjectPath(trusted: "/org/mprisd/AudioPolicy/session")
    public static let interface = "org.mprisd.AudioPolicy1"
    public static let sessionInterface = "org.mprisd.AudioSession1"

    /// The object of registered session `number`: `/org/mprisd/AudioPolicy/session/N`.
    public static func sessionPath(_ number: UInt64) throws(DBusError) -> ObjectPath {
        try sessionNamespace.appending(String(number))
    }
}
