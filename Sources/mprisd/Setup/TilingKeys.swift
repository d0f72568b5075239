import SystemContext

/// sway, i3 and Hyprland: the media-key bindings in a file of their own (`~/.config/mprisd/`),
/// and the one line of the user's configuration that includes it shown, never written: the
/// user's configuration is theirs to edit.
enum TilingKeys {
    enum Manager: String, CaseIterable {
        case sway, i3, hyprland

        /// The file of bindings.
        var file: String { UserDirectories.config + "/\(rawValue)-keys.conf" }

        /// The line that includes it, for the user's configuration.
        var include: String {
            switch self {
            case .sway, .i3: "include \(file)"
            case .hyprland: "source = \(file)"
            }
        }

        /// Where that line goes.
        var configuration: String {
            switch self {
            case .sway: "~/.config/sway/config"
            case .i3: "~/.config/i3/config"
            case .hyprland: "~/.config/hypr/hyprland.conf"
            }
        }
    }

    static let keys: [(key: String, action: String)] = [
        ("XF86AudioPlay", "play-pause"), ("XF86AudioPause", "pause"), ("XF86AudioStop", "stop"),
        ("XF86AudioNext", "next"), ("XF86AudioPrev", "previous"),
    ]

    /// The file's contents. sway binds with `--locked` (the keys work on the lock screen) and
    /// `--no-repeat`; Hyprland's `bindl` works locked and repeats only with `e`; i3 has neither,
    /// and `--key` makes a held key act once.
    static func contents(_ manager: Manager, control: String) -> String {
        var lines = ["# Written by mprisd setup: the media keys go to the player the daemon picks.",
                     "# Included from \(manager.configuration) with:  \(manager.include)",
                     "# mprisd setup --undo removes this file (and then remove that line)."]
        for (key, action) in keys {
            let command = "\(control) \(action) --key"
            switch manager {
            case .sway: lines.append("bindsym --locked --no-repeat \(key) exec \(command)")
            case .i3: lines.append("bindsym \(key) exec --no-startup-id \(command)")
            case .hyprland: lines.append("bindl = , \(key), exec, \(command)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func plan(_ manager: Manager, control: String) -> [SetupChange] {
        [SetupChange(store: .file, key: manager.file, before: nil, after: contents(manager, control: control), stage: 0,
                     purpose: "\(manager.rawValue)'s media-key bindings")]
    }
}
