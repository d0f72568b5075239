/// The volumes a player can really have: the one rule for every MPRIS `Volume` the daemon reads
/// (`GetAll`, `Get`, `PropertiesChanged`) and for every volume it reads back from the journal, so
/// nothing is ever set from a value that failed it.
public enum PlayerVolume {
    /// The loudest `Volume` believed. MPRIS allows more than 1.0 (amplification), but a player
    /// claiming more than this is wrong or hostile, and a ducking computed from it would be too.
    public static let maximum = 10.0

    /// `level` if it is finite and within 0…`maximum`; nil — not known — otherwise.
    public static func sane(_ level: Double) -> Double? {
        level.isFinite && level >= 0 && level <= maximum ? level : nil
    }
}
