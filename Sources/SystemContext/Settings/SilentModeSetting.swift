/// Silent mode (G-SILENT), persisted in `$XDG_STATE_HOME/mprisd/silent` as `on` or `off`: set by
/// `mprisd silent on|off` or the daemon's `SetSilentMode`, followed by the daemon through the file,
/// so it is the same whichever way it was set and survives restarts. No file means off.
public enum SilentModeSetting {
    /// The state file.
    public static var file: StateFile { StateFile(named: "silent") }

    /// Whether silent mode is on; an unreadable or unknown value counts as off.
    public static func read(_ file: StateFile = SilentModeSetting.file) -> Bool {
        parse(file.read()) ?? false
    }

    /// `on`/`off` (also `true`/`false`, `1`/`0`); nil for anything else.
    public static func parse(_ text: String?) -> Bool? {
        switch text?.lowercased() {
        case "on", "true", "1": true
        case "off", "false", "0": false
        default: nil
        }
    }

    /// Persists `on`.
    public static func write(_ on: Bool, to file: StateFile = SilentModeSetting.file) throws(StateFileError) {
        try file.write(on ? "on" : "off")
    }
}
