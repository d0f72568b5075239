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

        /// Where that line goes, as the user knows it.
        var configuration: String {
            switch self {
            case .sway: "~/.config/sway/config"
            case .i3: "~/.config/i3/config"
            case .hyprland: "~/.config/hypr/hyprland.conf"
            }
        }

        /// That file's path (`$XDG_CONFIG_HOME`).
        var configurationPath: String {
            let base = UserDirectories.config.dropLast("/mprisd".count)
            switch self {
            case .sway: return base + "/sway/config"
            case .i3: return base + "/i3/config"
            case .hyprland: return base + "/hypr/hyprland.conf"
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

    /// `writeConfig`: the include line is also appended to the user's configuration (`--write-config`),
    /// which must exist; `original`: its contents before setup first ran.
    static func plan(_ manager: Manager, control: String, writeConfig: Bool,
                     original: (String) throws(SetupError) -> String?) throws(SetupError) -> [SetupChange] {
        var changes = [SetupChange(store: .file, key: manager.file, before: nil, after: contents(manager, control: control), stage: 0,
                                   purpose: "\(manager.rawValue)'s media-key bindings")]
        guard writeConfig else { return changes }
        guard let configuration = try original(manager.configurationPath) else {
            throw SetupError("--write-config: \(manager.configurationPath) does not exist; add the line yourself where your configuration is")
        }
        let lines = configuration.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if !lines.contains(manager.include) {
            let body = configuration.hasSuffix("\n") || configuration.isEmpty ? configuration : configuration + "\n"
            changes.append(SetupChange(store: .file, key: manager.configurationPath, before: nil,
                                       after: body + "# mprisd setup: the media keys (mprisd setup --undo takes this out)\n" + manager.include + "\n",
                                       stage: 1, purpose: "the include line added to \(manager.configuration)",
                                       added: ["# mprisd setup: the media keys (mprisd setup --undo takes this out)", manager.include]))
        }
        return changes
    }
}
