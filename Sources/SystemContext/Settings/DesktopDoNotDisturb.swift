import CLazyLibraries
import DBus
#if canImport(Glibc)
import Glibc
#endif

/// Silent mode is the desktop's Do Not Disturb (issue 25), both ways, where the desktop has one
/// we know (`XDG_CURRENT_DESKTOP`):
/// - GNOME: `org.gnome.desktop.notifications show-banners` in dconf (false: Do Not Disturb on),
///   read and written through libdconf (loaded on first use), its changes told by dconf-service's
///   `Notify` signal (which names the key, not the value: read again);
/// - Xfce: xfce4-notifyd's `/do-not-disturb` in xfconf (channel `xfce4-notifyd`), read and
///   written over D-Bus (`org.xfce.Xfconf`), its changes told by `PropertyChanged` with the value.
///
/// The daemon follows the signal (never a timer) and writes what it learns into silent mode's
/// state file (`SilentModeSetting`), which it already follows; `mprisd silent on|off` and
/// `SetSilentMode` switch the desktop too, so the two never disagree. Elsewhere silent mode is the
/// daemon's own setting.
/// - KDE Plasma: the notification server's read-only `Inhibited` property (true while the user's
///   switch is on — `plasmanotifyrc [DoNotDisturb] Until` in the future — or any app holds an
///   inhibition), told by `PropertiesChanged`. Silent mode on is an inhibition the daemon holds
///   (`Inhibit`, `UnInhibit`): Plasma drops it when the daemon leaves the bus, so it never outlives
///   the daemon; the user's own switch turned off clears it too. So `write` does nothing here:
///   the daemon, following silent mode's file, holds or lets go of its inhibition
///   (`DoNotDisturbFollower`).
public enum DesktopDoNotDisturb: String, Sendable {
    case gnome = "GNOME"
    case xfce = "Xfce"
    case kde = "KDE Plasma"

    /// The dconf key of GNOME's switch.
    public static let gnomeKey = "/org/gnome/desktop/notifications/show-banners"
    /// xfconf's channel and property of xfce4-notifyd's switch.
    public static let xfceChannel = "xfce4-notifyd"
    public static let xfceProperty = "/do-not-disturb"
    static let xfconf = (name: "org.xfce.Xfconf", path: ObjectPath(trusted: "/org/xfce/Xfconf"), interface: "org.xfce.Xfconf")
    /// Plasma's notification server (the freedesktop name, with KDE's `Inhibited` and `Inhibit`).
    public static let notifications = (name: "org.freedesktop.Notifications", path: ObjectPath(trusted: "/org/freedesktop/Notifications"),
                                       interface: "org.freedesktop.Notifications")

    /// The session's desktop, from `XDG_CURRENT_DESKTOP` (a colon-separated list: "ubuntu:GNOME",
    /// "XFCE"); nil for one whose switch is not followed.
    public static var current: DesktopDoNotDisturb? {
        guard let desktops = getenv("XDG_CURRENT_DESKTOP").map({ String(cString: $0) }) else { return nil }
        for desktop in desktops.split(separator: ":").map({ $0.uppercased() }) {
            if desktop == "GNOME" || desktop == "GNOME-CLASSIC" { return .gnome }
            if desktop == "XFCE" { return .xfce }
            if desktop == "KDE" { return .kde }
        }
        return nil
    }

    /// Where the switch lives, for the log.
    public var switchName: String {
        switch self {
        case .gnome: "GNOME's Do Not Disturb (\(Self.gnomeKey))"
        case .xfce: "Xfce's Do Not Disturb (xfconf \(Self.xfceChannel) \(Self.xfceProperty))"
        case .kde: "KDE Plasma's Do Not Disturb (the notification server's Inhibited)"
        }
    }

    /// Whether Do Not Disturb is on now; nil when the store cannot be asked (no libdconf, no
    /// xfconfd). Unset is off on both desktops. Not on `connection`'s I/O thread (it waits).
    public func read(_ connection: Connection) -> Bool? {
        switch self {
        case .gnome:
            guard mprisd_dconf_load(nil) else { return nil }
            return mprisd_dconf_read_boolean(Self.gnomeKey) == 0
        case .xfce:
            let call = Message.methodCall(destination: Self.xfconf.name, path: Self.xfconf.path, interface: Self.xfconf.interface,
                                          member: "GetProperty", body: [.string(Self.xfceChannel), .string(Self.xfceProperty)])
            do {
                let reply = try connection.callAndWait(call, timeout: .seconds(2))
                return Self.boolean(reply.body.first) ?? false
            } catch where error.name == "org.xfce.Xfconf.Error.PropertyNotFound" {
                return false
            } catch {
                return nil
            }
        case .kde:
            let call = Message.methodCall(destination: Self.notifications.name, path: Self.notifications.path,
                                          interface: "org.freedesktop.DBus.Properties", member: "Get",
                                          body: [.string(Self.notifications.interface), .string("Inhibited")])
            guard let reply = try? connection.callAndWait(call, timeout: .seconds(2)) else { return nil }
            return Self.boolean(reply.body.first)
        }
    }

    /// Switches Do Not Disturb; the reason when the store did not take it. `wait`: for the answer
    /// (not on `connection`'s I/O thread); otherwise the call is sent and not waited for.
    public func write(_ on: Bool, _ connection: Connection, wait: Bool) -> String? {
        switch self {
        case .gnome:
            var buffer = [CChar](repeating: 0, count: 512)
            guard let failure = mprisd_dconf_write_boolean(Self.gnomeKey, !on, &buffer, buffer.count) else { return nil }
            return String(cString: failure)
        case .xfce:
            let call = Message.methodCall(destination: Self.xfconf.name, path: Self.xfconf.path, interface: Self.xfconf.interface,
                                          member: "SetProperty", body: [.string(Self.xfceChannel), .string(Self.xfceProperty),
                                                                        .variant(.boolean(on))])
            guard wait else {
                connection.call(call, timeout: .seconds(2)) { _ in }
                return nil
            }
            do {
                _ = try connection.callAndWait(call, timeout: .seconds(2))
                return nil
            } catch {
                return "xfconf: \(error)"
            }
        case .kde:
            return nil  // the daemon's inhibition follows silent mode (see the type's comment)
        }
    }

    /// The signals that tell of a change.
    public var changeRule: MatchRule {
        switch self {
        case .gnome: MatchRule(interface: "ca.desrt.dconf.Writer", member: "Notify")
        case .xfce: MatchRule(sender: Self.xfconf.name, interface: Self.xfconf.interface, path: Self.xfconf.path)
        case .kde: MatchRule(sender: Self.notifications.name, interface: "org.freedesktop.DBus.Properties",
                             member: "PropertiesChanged", path: Self.notifications.path)
        }
    }

    /// What `signal` (of `changeRule`) says the switch is now: nil when it is not about it. For
    /// GNOME the signal names keys only, and the value is read (from the database: no bus call).
    public func value(in signal: Message) -> Bool? {
        switch self {
        case .gnome:
            guard Self.notifyTouchesKey(signal), mprisd_dconf_load(nil) else { return nil }
            return mprisd_dconf_read_boolean(Self.gnomeKey) == 0
        case .xfce:
            guard signal.body.count >= 2, case .string(let channel) = signal.body[0], case .string(let property) = signal.body[1],
                  channel == Self.xfceChannel, property == Self.xfceProperty else { return nil }
            switch signal.member {
            case "PropertyChanged": return Self.boolean(signal.body.count > 2 ? signal.body[2] : nil) ?? false
            case "PropertyRemoved": return false
            default: return nil
            }
        case .kde:
            guard signal.body.count >= 2, case .string(Self.notifications.interface) = signal.body[0],
                  case .dictionary(_, _, let entries) = signal.body[1] else { return nil }
            return entries.first { $0.key == .string("Inhibited") }.flatMap { Self.boolean($0.value) }
        }
    }

    /// Whether a dconf `Notify(prefix, changes, tag)` touches GNOME's key: each change is the
    /// prefix followed by a relative path (one empty path: the prefix itself, a key or a dir).
    static func notifyTouchesKey(_ signal: Message) -> Bool {
        guard signal.body.count >= 2, case .string(let prefix) = signal.body[0],
              case .array(_, let changes) = signal.body[1] else { return false }
        return changes.contains { change in
            guard case .string(let path) = change else { return false }
            let changed = prefix + path
            return changed == gnomeKey || (changed.hasSuffix("/") && gnomeKey.hasPrefix(changed))
        }
    }

    /// A boolean, possibly in a variant.
    private static func boolean(_ value: DBusValue?) -> Bool? {
        switch value {
        case .boolean(let on)?: on
        case .variant(let inner)?: boolean(inner)
        default: nil
        }
    }
}
