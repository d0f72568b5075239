/// The arbitration-relevant facts of a validated configuration, computed once per configuration
/// change so that decisions never look at option sets (G-CAT-*, G-CALLS, field notes).
public struct SessionTraits: Sendable, Hashable {
    /// Mixes with other audio: ambient, or mixWithOthers / duckOthers / interruptSpokenAudio….
    public var isMixable: Bool
    /// A call: non-mixing playAndRecord in voiceChat or videoChat mode (G-CALLS, G-SCN-VOIP).
    public var isCall: Bool
    /// Ducks the other active sessions while active (G-CAT-OPTIONS).
    public var ducksOthers: Bool
    /// Interrupts spokenAudio sessions while active (field notes).
    public var interruptsSpokenAudio: Bool
    /// In spokenAudio mode: interrupted, not ducked, by spoken-audio interrupters.
    public var isSpokenAudio: Bool
    /// audioProcessing: takes part only in arbitration with calls and other audioProcessing sessions.
    public var isAudioProcessing: Bool
    /// Silenced by silent mode and screen lock: ambient and soloAmbient (G-SILENT).
    public var isSilencedBySilentModeAndLock: Bool
    /// The category plays sound.
    public var hasOutput: Bool
    /// The category records (needs record permission).
    public var hasInput: Bool
    /// Stays active when the built-in mic is muted (G-INT-MIC override).
    public var overridesMutedMicrophone: Bool

    /// The traits of a validated configuration.
    public init(_ configuration: SessionConfiguration) {
        let options = configuration.options
        let category = configuration.category
        ducksOthers = options.contains(.duckOthers)
        interruptsSpokenAudio = options.contains(.interruptSpokenAudioAndMixWithOthers)
        isMixable = category.mixesByDefault || options.contains(.mixWithOthers)
            || ducksOthers || interruptsSpokenAudio
        isCall = category == .playAndRecord && !isMixable
            && (configuration.mode == .voiceChat || configuration.mode == .videoChat)
        isSpokenAudio = configuration.mode == .spokenAudio
        isAudioProcessing = category == .audioProcessing
        isSilencedBySilentModeAndLock = category.isSilencedBySilentModeAndLock
        hasOutput = category.hasOutput
        hasInput = category.hasInput
        overridesMutedMicrophone = options.contains(.overrideMutedMicrophoneInterruption)
    }

    /// Primary audio: non-mixing output that should silence secondary audio (field notes,
    /// secondaryAudioShouldBeSilencedHint).
    public var isPrimaryAudio: Bool { hasOutput && !isMixable && !isAudioProcessing }
}

extension SessionConfiguration {
    /// The arbitration traits of this configuration.
    public var traits: SessionTraits { SessionTraits(self) }
}
