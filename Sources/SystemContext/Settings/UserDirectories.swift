#if canImport(Glibc)
import Glibc
#endif

/// Where mprisd keeps the user's configuration and state (XDG Base Directory specification).
public enum UserDirectories {
    /// `$XDG_CONFIG_HOME/mprisd`, default `~/.config/mprisd`.
    public static var config: String { base("XDG_CONFIG_HOME", fallback: ".config") + "/mprisd" }

    /// `$XDG_STATE_HOME/mprisd`, default `~/.local/state/mprisd`: what the user set and expects to
    /// survive a restart (silent mode, the route pick).
    public static var state: String { base("XDG_STATE_HOME", fallback: ".local/state") + "/mprisd" }

    /// `$XDG_DATA_HOME`, default `~/.local/share`: where other programs look for the user's data
    /// files (KDE's kglobalaccel for its launchers), not mprisd's own.
    public static var dataHome: String { base("XDG_DATA_HOME", fallback: ".local/share") }

    /// The configuration file, `$XDG_CONFIG_HOME/mprisd/config`.
    public static var configFile: String { config + "/config" }

    /// The user's rules for apps that know nothing of mprisd, `$XDG_CONFIG_HOME/mprisd/apps`
    /// (`AppRules` in the daemon).
    public static var appsFile: String { config + "/apps" }

    /// The specification ignores relative paths in these variables; so do we.
    private static func base(_ variable: String, fallback: String) -> String {
        if let value = environment(variable), value.hasPrefix("/") { return value }
        let home = environment("HOME").flatMap { $0.isEmpty ? nil : $0 } ?? homeFromPasswd() ?? "/"
        return (home.hasSuffix("/") ? String(home.dropLast()) : home) + "/" + fallback
    }

    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    private static func homeFromPasswd() -> String? {
        guard let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir else { return nil }
        return String(cString: dir)
    }
}
