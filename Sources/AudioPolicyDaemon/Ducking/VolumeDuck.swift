/// How much quieter a ducked player or stream gets: its volume × 0.3 (WirePlumber's role-based
/// ducking lowers by about as much; field notes) — on the player's `Volume` or on the stream's
/// volume in the server's cubic scale, whichever is the player's one channel.
let duckRatio = 0.3

/// One duck: a volume lowered while another app speaks, owed back afterwards. The one rule for
/// MPRIS players (`ForeignPlayer`, their `Volume`) and audio-server streams (`StreamPolicy`,
/// the per-app volume the mixer shows), pure:
///
/// - Lowering takes the volume read just before (`found`, the user's) to `found × duckRatio`
///   (`set`, ours); a volume that does not change (silent already) is no duck.
/// - A volume seen while ducked is ours (`set`), the user's before it (`found`: our own late
///   echo, a server putting a remembered value back, or a player that ignores the set), or
///   another: the user chose it, and theirs stays — now and when the duck ends.
/// - When the duck ends, `found` comes back exactly, but only where the volume is still ours.
struct VolumeDuck<Level: DuckLevel>: Sendable, Hashable {
    /// The user's volume, to give back.
    var found: Level
    /// Ours.
    var set: Level

    /// What a volume seen while ducked is.
    enum Reading: Sendable, Hashable {
        /// The lowered value: ours.
        case ours
        /// The value lowered from.
        case found
        /// Neither: the user chose it.
        case usersChoice
    }

    /// `found` lowered by `ratio`; nil when that changes nothing.
    init?(lowering found: Level, by ratio: Double = duckRatio) {
        let lowered = found.scaled(by: ratio)
        guard lowered != found else { return nil }
        self.init(found: found, set: lowered)
    }

    init(found: Level, set: Level) {
        self.found = found
        self.set = set
    }

    /// What `seen` is, ours first (a duck of a silent volume is never made, but a lowered value
    /// within rounding of the found one reads as ours).
    func reading(_ seen: Level) -> Reading {
        if seen.isSame(as: set) { return .ours }
        if seen.isSame(as: found) { return .found }
        return .usersChoice
    }

    /// The duck ends with the volume at `now`: the value to set back — `found`, where `now` is
    /// still ours — or nil, where it is not (the user's, or already back).
    func restoring(from now: Level) -> Level? {
        reading(now) == .ours ? found : nil
    }

    /// Whether lowering changed anything a reader could tell apart: a player whose volume reads
    /// `found` after our set ignores it only if `set` differs from `found` at all.
    var isAudible: Bool { !set.isSame(as: found) }
}
