import SystemContext

/// GNOME's media keys follow the arbiter (issue 25), the way Settings stores shortcuts, measured
/// against the real gnome-settings-daemon 43: its `gsd-media-keys` holds each media key through
/// a `-static` key (`play-static = ['XF86AudioPlay', '<Ctrl>XF86AudioPlay']`) beside the plain key
/// the user may set, and sends the key to a player it picks itself. Setup:
///
/// 1. releases each key: its `-static` list, then its plain list, set to `[]` (gsd re-grabs when
///    the plain key changes, never for the `-static` one, so the `-static` key goes first — in
///    setup and in undo);
/// 2. adds one custom shortcut per accelerator those lists held (the user's own plain bindings
///    too, so none is lost), running `mprisd-control ACTION --key`;
/// 3. appends the shortcuts to `custom-keybindings`, keeping the user's own.
///
/// What it costs, stated plainly: GNOME runs custom shortcuts only outside the lock screen
/// (`GSD_ACTION_MODE_LAUNCHER`), where its own binding of Play worked on it too; and a custom
/// shortcut repeats while the key is held (`META_KEY_BINDING_NONE`), which `--key` turns back into
/// one press (`KeyRepeat` in the daemon).
enum GnomeMediaKeys {
    static let schema = "org.gnome.settings-daemon.plugins.media-keys"
    static let directory = "/org/gnome/settings-daemon/plugins/media-keys/"
    static let customList = directory + "custom-keybindings"

    /// GNOME's key names, and what each runs.
    static let keys: [(key: String, action: String, title: String)] = [
        ("play", "play-pause", "Play/Pause"), ("pause", "pause", "Pause"), ("stop", "stop", "Stop"),
        ("next", "next", "Next"), ("previous", "previous", "Previous"),
    ]

    /// The custom shortcut's dconf directory for the `index`th accelerator of `key`.
    static func customPath(_ key: String, _ index: Int) -> String {
        directory + "custom-keybindings/mprisd-\(key)\(index == 0 ? "" : "-\(index + 1)")/"
    }

    /// The changes that make GNOME's media keys run `control` (the path of `mprisd-control`).
    /// `original`: the value a dconf key had before setup first ran (nil: unset).
    static func plan(control: String, original: (String) throws(SetupError) -> String?) throws(SetupError) -> [SetupChange] {
        guard DconfStore.schemaDefault(schema, "play-static") != nil else {
            throw SetupError("GNOME's media-keys settings (\(schema)) are not installed: is gnome-settings-daemon?")
        }
        /// The accelerators a list key holds, its schema's default when no database sets it.
        func accelerators(_ name: String) throws(SetupError) -> [String] {
            let text = try original(directory + name) ?? DconfStore.schemaDefault(schema, name) ?? "@as []"
            guard let list = GVariantStrings.parse(text) else {
                throw SetupError("\(directory + name) holds \(text), not a list of shortcuts")
            }
            return list.filter { !$0.isEmpty }
        }
        var released: [SetupChange] = []
        var shortcuts: [SetupChange] = []
        var paths: [String] = []
        for (key, action, title) in keys {
            var held: [String] = []
            for name in [key + "-static", key] {
                for accelerator in try accelerators(name) where !held.contains(accelerator) { held.append(accelerator) }
                released.append(SetupChange(store: .dconf, key: directory + name, before: nil, after: "@as []", stage: 0,
                                            purpose: "GNOME lets go of its \(title) key\(name.hasSuffix("-static") ? " (built in)" : "")"))
            }
            for (index, accelerator) in held.enumerated() {
                let path = customPath(key, index)
                paths.append(path)
                let values = [("name", "mprisd: \(title)"), ("command", "\(control) \(action) --key"), ("binding", accelerator)]
                for (name, value) in values {
                    shortcuts.append(SetupChange(store: .dconf, key: path + name, before: nil, after: GVariantStrings.quoted(value),
                                                 stage: 1, purpose: "a shortcut: \(accelerator) runs mprisd-control \(action)"))
                }
            }
        }
        let listText = try original(customList) ?? "@as []"
        guard let list = GVariantStrings.parse(listText) else {
            throw SetupError("\(customList) holds \(listText), not a list of paths")
        }
        let added = paths.filter { !list.contains($0) }
        let listChange = SetupChange(store: .dconf, key: customList, before: nil, after: GVariantStrings.text(list + added),
                                     stage: 2, purpose: "the shortcuts added to the user's own", added: added)
        return released + shortcuts + [listChange]
    }
}
