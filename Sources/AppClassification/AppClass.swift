import SessionCore

/// What an app that knows nothing of mprisd is taken to be, and so how its implicit session
/// behaves. The raw value is the word a rule names it by (`AppRules`) and the word `mprisd status`
/// shows.
public enum AppClass: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A call: playAndRecord + voiceChat, not mixing. Its capture stream begins the call, which
    /// interrupts every other app's audio (G-CALLS, G-SCN-VOIP, G-APP-VOIP).
    case call
    /// A spoken prompt (navigation, speech, an assistant): playback + voicePrompt that ducks the
    /// others and interrupts spoken audio (G-SCN-NAV, G-APP-NAV). Not the `spokenAudio` *mode*:
    /// that mode marks what a prompt pauses (a podcast), so a prompt in it would pause the next one.
    case prompt
    /// A screen reader: ducks the others while it speaks and is never ducked or interrupted itself
    /// (assistive speech is how its user hears the desktop; NVDA PR #17374).
    case screenReader
    /// Notification and alert sounds: ambient (they mix and are silenced by silent mode and the
    /// lock), never ducking or interrupting anything (G-UI-SOUNDS, G-SILENT, G-SCN-BLOG).
    case systemSound
    /// A game: ambient, so the user's own music keeps playing (G-APP-GAME, G-SCN-GAME); a rule
    /// saying `soloAmbient` makes it silence others instead.
    case game
    /// Music and video the user started: playback, not mixing (G-APP-MEDIA); the newest
    /// non-mixing playback wins, as for sessions of the library.
    case media
    /// Playback that mixes: what an app is when nothing is known of it. It is never paused or
    /// muted on a guess, and interrupts nothing (G-CAT-CONTEXT).
    case mixing
    /// Left alone entirely: no session, never muted, ducked or paused.
    case ignore
    /// A rule's own category, mode and options.
    case custom

    public var description: String { rawValue }

    /// The configuration of the implicit session, nil for `ignore` and `custom` (whose rule gives
    /// its own).
    public var configuration: SessionConfiguration? {
        switch self {
        case .call: SessionConfiguration(.playAndRecord, mode: .voiceChat)
        case .prompt: SessionConfiguration(.playback, mode: .voicePrompt,
                                           options: [.duckOthers, .interruptSpokenAudioAndMixWithOthers])
        case .screenReader: SessionConfiguration(.playback, options: [.duckOthers])
        case .systemSound, .game: SessionConfiguration(.ambient)
        case .media: SessionConfiguration(.playback)
        case .mixing: SessionConfiguration(.playback, options: [.mixWithOthers])
        case .ignore, .custom: nil
        }
    }

    /// Never ducked, muted or interrupted by another session: a screen reader (its user hears the
    /// desktop through it; not even a call silences it).
    public var isProtected: Bool { self == .screenReader }

    /// The words a rule may use for a class, with their aliases (`alert` for `systemSound`,
    /// `music` for `media`). `custom` has none: a rule names a category instead.
    public static let ruleWords: [String: AppClass] = [
        "call": .call, "prompt": .prompt, "screenReader": .screenReader,
        "systemSound": .systemSound, "alert": .systemSound, "game": .game,
        "media": .media, "music": .media, "mixing": .mixing, "ignore": .ignore,
    ]
}
