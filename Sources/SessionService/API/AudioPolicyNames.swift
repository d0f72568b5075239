import DBus

/// The policy daemon's names on the session bus (design: "Policy daemon").
public enum AudioPolicyNames {
    public static let busName = "org.mprisd.AudioPolicy"
    public static let objectPath = "/org/mprisd/AudioPolicy"
    public static let interface = "org.mprisd.AudioPolicy1"
    public static let sessionInterface = "org.mprisd.AudioSession1"

    /// The object of registered session `number`: `/org/mprisd/AudioPolicy/session/N`.
    public static func sessionPath(_ number: UInt64) throws(DBusError) -> ObjectPath {
        try ObjectPath("\(objectPath)/session/\(number)")
    }
}
