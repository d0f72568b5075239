import CLazyLibraries
import DBus
#if canImport(Glibc)
import Glibc
#endif

/// Silent mode is the desktop's Do Not Disturb (issue 25), both ways, where the desktop is GNOME:
/// its switch is `org.gnome.desktop.notifications show-banners` in dconf (false: Do Not Disturb
/// on). The daemon follows dconf-service's `Notify` signal on the session bus (never a timer) and
/// writes what it reads into silent mode's state file (`SilentModeSetting`), which it already
/// follows; `mprisd silent on|off` and `SetSilentMode` write the key too, so the two never
/// disagree. Elsewhere (no GNOME in `XDG_CURRENT_DESKTOP`, or no libdconf) silent mode is the
/// daemon's own setting, as before. KDE Plasma's and Xfce's switches are not followed yet.
public enum DesktopDoNotDisturb {
    /// The dconf key of GNOME's Do Not Disturb switch.
    public static let key = "/org/gnome/desktop/notifications/show-banners"

    /// Whether the session's desktop is GNOME (`XDG_CURRENT_DESKTOP`, a colon-separated list:
    /// "GNOME", "ubuntu:GNOME", "GNOME-Classic:GNOME"), so its Do Not Disturb is silent mode.
    public static var isFollowed: Bool {
        guard let desktops = getenv("XDG_CURRENT_DESKTOP").map({ String(cString: $0) }) else { return false }
        return desktops.split(separator: ":").contains { $0 == "GNOME" || $0 == "GNOME-Classic" }
    }

    /// Whether Do Not Disturb is on: `show-banners` false. Unset is GNOME's default, banners shown
    /// (off); nil when dconf cannot be read (no libdconf).
    public static func read() -> Bool? {
        guard mprisd_dconf_load(nil) else { return nil }
        return mprisd_dconf_read_boolean(key) == 0
    }

    /// Turns Do Not Disturb on or off; the reason when dconf did not take it.
    public static func write(_ on: Bool) -> String? {
        var buffer = [CChar](repeating: 0, count: 512)
        guard let failure = mprisd_dconf_write_boolean(key, !on, &buffer, buffer.count) else { return nil }
        return String(cString: failure)
    }

    /// Whether a dconf `Notify(prefix, changes, tag)` touches the key: a change is the prefix
    /// followed by each relative path (one empty path: the prefix itself, a key or a whole dir).
    public static func touchesKey(_ signal: Message) -> Bool {
        guard signal.body.count >= 2, case .string(let prefix) = signal.body[0],
              case .array(_, let changes) = signal.body[1] else { return false }
        return changes.contains { change in
            guard case .string(let path) = change else { return false }
            let changed = prefix + path
            return changed == key || (changed.hasSuffix("/") && key.hasPrefix(changed))
        }
    }

    /// The match rule of dconf-service's change signals (every database's path).
    public static let notifyRule = MatchRule(interface: "ca.desrt.dconf.Writer", member: "Notify")
}
