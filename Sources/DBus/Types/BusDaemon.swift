/// The bus daemon's own names (`org.freedesktop.DBus` at `/org/freedesktop/DBus`): every
/// `GetNameOwner`, `ListNames` or `NameOwnerChanged` match is addressed with these, declared once.
public enum BusDaemon {
    /// The daemon's well-known name, also the sender of its signals.
    public static let name = "org.freedesktop.DBus"
    /// The daemon's one object.
    public static let path = ObjectPath(trusted: "/org/freedesktop/DBus")
    /// The interface of `Hello`, `RequestName`, `GetNameOwner`, `NameOwnerChanged` and the rest.
    public static let interface = "org.freedesktop.DBus"
}
