/// The user's route pick (G-ROUTE-PICK), persisted in `$XDG_STATE_HOME/mprisd/route` so that every
/// running player and the daemon follow it and it survives a restart. The file holds one port id;
/// no file means automatic routing.
public enum RoutePick {
    /// The state file.
    public static var file: StateFile { StateFile(named: "route") }

    /// The word that means "no pick" on the command line.
    public static let automatic = "auto"

    /// The picked port id; nil: automatic.
    public static func read(_ file: StateFile = RoutePick.file) -> String? {
        guard let value = file.read(), !value.isEmpty else { return nil }
        return value
    }

    /// Picks `portID` (nil: automatic).
    public static func write(_ portID: String?, to file: StateFile = RoutePick.file) throws(StateFileError) {
        if let portID { try file.write(portID) } else { try file.remove() }
    }
}
