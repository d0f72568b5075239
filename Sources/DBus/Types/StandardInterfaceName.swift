/// The names of the interfaces the D-Bus specification defines for every object, declared once for
/// the binding (which answers them itself) and for callers of other programs' objects.
public enum StandardInterfaceName {
    public static let introspectable = "org.freedesktop.DBus.Introspectable"
    public static let properties = "org.freedesktop.DBus.Properties"
    public static let peer = "org.freedesktop.DBus.Peer"
    public static let objectManager = "org.freedesktop.DBus.ObjectManager"
    /// Signals libdbus makes up itself, such as `Disconnected`; never on the wire.
    public static let local = "org.freedesktop.DBus.Local"
}
