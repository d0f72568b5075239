import DBus

/// Xfce's media keys follow the arbiter (issue 25), in xfconf, where Xfce's own settings keep them:
/// xfce4-pulseaudio-plugin grabs Play, Stop, Previous and Next itself (`keybinder_bind`) while its
/// `enable-multimedia-keys` is on (the default) and sends them to a player it picks, so setup
/// turns that off for each pulseaudio plugin of the panel (channel `xfce4-panel`,
/// `/plugins/plugin-N/enable-multimedia-keys`; its volume keys stay on), then binds each key to
/// `mprisd-control ACTION --key` in Xfce's keyboard shortcuts (channel `xfce4-keyboard-shortcuts`,
/// `/commands/custom/KEY`, run by xfsettingsd) — replacing a binding the user had for that very
/// key, which undo puts back.
///
/// Only when the user's shortcuts exist (`/commands/custom/override` true, written by xfsettingsd
/// at the first Xfce login): without it xfsettingsd would reset the custom shortcuts to Xfce's
/// defaults at the next login, and ours with them.
enum XfceMediaKeys {
    static let panel = "xfce4-panel"
    static let shortcuts = "xfce4-keyboard-shortcuts"
    static let keys: [(key: String, action: String)] = TilingKeys.keys

    static func plan(_ stores: SetupStores, control: String) throws(SetupError) -> [SetupChange] {
        guard stores.session != nil else { throw SetupError("no session bus: Xfce's settings (xfconfd) live there") }
        guard try stores.read(.xfconf, shortcuts + ":/commands/custom/override") == "b true" else {
            throw SetupError("Xfce's keyboard shortcuts are not set up yet (\(shortcuts) /commands/custom/override is not true): "
                             + "log in to Xfce once, then run mprisd setup")
        }
        var changes: [SetupChange] = []
        let plugins = try stores.xfconfProperties(panel, under: "/plugins")
        for (property, value) in plugins.sorted(by: { $0.key < $1.key }) where value == .variant(.string("pulseaudio")) || value == .string("pulseaudio") {
            changes.append(SetupChange(store: .xfconf, key: "\(panel):\(property)/enable-multimedia-keys", before: nil, after: "b false",
                                       stage: 0, purpose: "the panel's PulseAudio plugin lets go of the media keys (\(property))"))
        }
        for (key, action) in keys {
            changes.append(SetupChange(store: .xfconf, key: "\(shortcuts):/commands/custom/\(key)", before: nil,
                                       after: "s \(control) \(action) --key", stage: 1, purpose: "\(key) runs mprisd-control \(action)"))
        }
        return changes
    }
}
