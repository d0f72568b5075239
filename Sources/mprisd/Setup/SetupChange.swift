/// One value `mprisd setup` changes outside the daemon — a dconf key, a file, a systemd user
/// unit's state — with the value it had before, recorded before it is changed so that
/// `mprisd setup --undo` can put back exactly that.
struct SetupChange: Codable, Hashable, Sendable {
    /// Where the value lives.
    enum Store: String, Codable, Sendable {
        /// A dconf key (GNOME's settings), its value as GVariant text; nil: no database sets it.
        case dconf
        /// An xfconf property (Xfce's settings), its key `CHANNEL:PROPERTY`, its value typed
        /// (`XfconfValue`: `b false`); nil: not set.
        case xfconf
        /// A kglobalaccel shortcut (KDE Plasma's), its key the action's id `COMPONENT|ACTION|NAME|NAME`
        /// (`KDEMediaKeys.key`), its value the keys (`KGlobalAccelKeys`: "" for none); nil: no
        /// such shortcut registered.
        case kglobalaccel
        /// A file's contents; nil: no such file.
        case file
        /// Whether a systemd user unit is masked: "masked", or nil for not masked.
        case unitMask = "unit-mask"
        /// Whether a systemd user unit runs: "active", or nil for stopped.
        case unitActive = "unit-active"
    }

    var store: Store
    /// The dconf key, the file's path or the unit's name.
    var key: String
    /// The value before setup changed it (nil: unset, absent, not masked, stopped).
    var before: String?
    /// The value setup puts there.
    var after: String?
    /// Undo runs the stages from the last to the first, and the changes of one stage in the order
    /// setup made them: GNOME's media keys re-grab when the plain key changes, never for its
    /// `-static` twin, so both setup and undo write the `-static` key first.
    var stage: Int
    /// What the change is for, in a few words ("GNOME lets go of its Play key").
    var purpose: String
    /// For a list setup appended to (GNOME's `custom-keybindings`): the items it added. When the
    /// list changed after setup (the user added a shortcut of their own), undo takes out just
    /// these and keeps the rest.
    var added: [String]? = nil
}

extension SetupChange {
    /// The key and its value from `now` to `after`, for the dry run and the output.
    func described(from now: String?) -> String {
        let value = { (text: String?) in text.map { $0.count > 60 ? $0.prefix(57) + "…" : $0 } ?? "unset" }
        return "\(key): \(value(now)) → \(value(after))"
    }
}
