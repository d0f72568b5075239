#if canImport(Glibc)
import Glibc
#endif

/// The desktop `mprisd setup` makes follow the arbiter: from `XDG_CURRENT_DESKTOP` (a
/// colon-separated list: "ubuntu:GNOME", "XFCE", "KDE", "sway"), or `--desktop`.
enum SetupDesktop: String, CaseIterable {
    case gnome, kde, xfce, sway, i3, hyprland

    /// The session's desktop; nil when `XDG_CURRENT_DESKTOP` names none of ours.
    static var current: SetupDesktop? {
        guard let value = getenv("XDG_CURRENT_DESKTOP").map({ String(cString: $0) }) else { return nil }
        return detect(value)
    }

    static func detect(_ value: String) -> SetupDesktop? {
        for name in value.split(separator: ":").map({ $0.lowercased() }) {
            switch name {
            case "gnome", "gnome-classic", "gnome-flashback", "unity": return .gnome
            case "kde": return .kde
            case "xfce": return .xfce
            case "sway": return .sway
            case "i3": return .i3
            case "hyprland": return .hyprland
            default: continue
            }
        }
        return nil
    }

    /// The names `--desktop` takes.
    static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
