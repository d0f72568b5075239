/// A specialisation of a category (field notes, "Modes").
///
/// A mode that is not valid for the session's category behaves as `.default`; the engine stores the
/// effective mode and reports the replacement in `ConfigurationChange.ignoredMode`.
public enum SessionMode: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case `default`
    /// Two-way voice call (playAndRecord). Non-mixing playAndRecord + voiceChat is a *call* (G-CALLS).
    case voiceChat
    /// Two-way video call (playAndRecord). Non-mixing playAndRecord + videoChat is a *call* (G-CALLS).
    case videoChat
    /// In-game voice chat (playAndRecord); not a call.
    case gameChat
    /// Video capture (record, playAndRecord).
    case videoRecording
    /// Minimal signal processing for metering (record, playAndRecord, playback) — G-APP-METER.
    case measurement
    /// Film and video playback (playback).
    case moviePlayback
    /// Podcasts, audiobooks (playback): *interrupted*, not ducked, by sessions with
    /// `interruptSpokenAudioAndMixWithOthers`.
    case spokenAudio
    /// Short spoken prompts such as navigation (playback, playAndRecord) — G-SCN-NAV.
    case voicePrompt

    public var description: String { rawValue }

    /// The categories for which this mode is valid.
    public var validCategories: Set<SessionCategory> {
        switch self {
        case .default: Set(SessionCategory.allCases)
        case .voiceChat, .videoChat, .gameChat: [.playAndRecord]
        case .videoRecording: [.record, .playAndRecord]
        case .measurement: [.record, .playAndRecord, .playback]
        case .moviePlayback, .spokenAudio: [.playback]
        case .voicePrompt: [.playback, .playAndRecord]
        }
    }

    /// Whether this mode is valid for `category`.
    public func isValid(for category: SessionCategory) -> Bool {
        validCategories.contains(category)
    }
}
