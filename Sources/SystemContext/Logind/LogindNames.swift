import DBus

/// The names systemd-logind uses on the system bus, in one place so the lock monitor and the
/// session lookup agree on their spelling.
enum LogindNames {
    /// logind's well-known name.
    static let busName = "org.freedesktop.login1"
    /// The manager object: `GetUser`, `GetSession`, `ListSessions`, `SessionNew`/`SessionRemoved`.
    static let managerPath = ObjectPath(trusted: "/org/freedesktop/login1")
    /// Every session object lies below this path (`…/session/_32` on a real system).
    static let sessionNamespace = ObjectPath(trusted: "/org/freedesktop/login1/session")
    /// Every user object lies below this path (`…/user/_1000` on a real system).
    static let userNamespace = ObjectPath(trusted: "/org/freedesktop/login1/user")

    static let managerInterface = "org.freedesktop.login1.Manager"
    static let sessionInterface = "org.freedesktop.login1.Session"
    static let userInterface = "org.freedesktop.login1.User"

    /// The session property the desktop's screen locker sets (`SetLockedHint`).
    static let lockedHint = "LockedHint"
    /// The manager's signal `PrepareForSleep(b)`: true just before the system suspends or
    /// hibernates, false after it woke up (or the sleep failed).
    static let prepareForSleep = "PrepareForSleep"
    /// The user property naming the session that owns the user's display, `(so)`; `("", "/")`
    /// when the user has no graphical session.
    static let display = "Display"
}
