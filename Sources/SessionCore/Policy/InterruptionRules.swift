/// What happens to an active session when another one activates (G-CALLS, G-CAT-OPTIONS,
/// G-INT-KINDS, field notes on mixing, ducking and spoken audio).
public enum ArbitrationOutcome: Sendable, Hashable {
    /// Both play.
    case keepsPlaying
    /// The active session is interrupted and receives *began*.
    case interrupted
    /// The active session keeps playing, quieter, for as long as the newcomer is active.
    case ducked
}

/// The pure pairwise rules the engine applies. Each rule is one line; the order is the priority.
public enum InterruptionRules {
    /// The outcome for `active` when `newcomer` activates.
    ///
    /// 1. A call interrupts anything (G-CALLS).
    /// 2. audioProcessing makes no sound: it only excludes other audioProcessing sessions.
    /// 3. A non-mixing activation interrupts the other non-mixing sessions; mixing ones keep
    ///    playing (G-CAT-CONTEXT, table §2).
    /// 4. interruptSpokenAudioAndMixWithOthers interrupts spokenAudio sessions (field notes).
    /// 5. duckOthers ducks the others, never a call (G-CAT-OPTIONS).
    public static func outcome(ofActivating newcomer: SessionTraits,
                               on active: SessionTraits) -> ArbitrationOutcome {
        if newcomer.isCall { return .interrupted }
        if newcomer.isAudioProcessing || active.isAudioProcessing {
            return newcomer.isAudioProcessing && active.isAudioProcessing ? .interrupted : .keepsPlaying
        }
        if !newcomer.isMixable && !active.isMixable { return .interrupted }
        if newcomer.interruptsSpokenAudio && active.isSpokenAudio { return .interrupted }
        if ducks(newcomer, active) { return .ducked }
        return .keepsPlaying
    }

    /// Whether an active `ducker` keeps `other` ducked: duckOthers ducks every other active
    /// session except calls (G-CAT-OPTIONS: never a phone call) and audioProcessing (no sound) —
    /// also sessions that start after it, for exactly as long as it is active.
    public static func ducks(_ ducker: SessionTraits, _ other: SessionTraits) -> Bool {
        ducker.ducksOthers && !other.isCall && !other.isAudioProcessing
    }

    /// Whether an activation of `newcomer` is refused because a call owns audio (G-CALLS): every
    /// non-mixing activation other than a call fails with `insufficientPriority` while one is active.
    public static func isRefusedDuringCall(_ newcomer: SessionTraits) -> Bool {
        !newcomer.isMixable && !newcomer.isCall
    }
}
