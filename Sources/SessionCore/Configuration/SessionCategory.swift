/// The audio intent an app declares for its session (G-CAT-SEMANTIC).
///
/// Choose a category by what the sound *means* to the user, not by the exact set of behaviours it
/// happens to have. The table of `guidelines.md` §2 is encoded in the computed properties below.
public enum SessionCategory: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The default: non-essential sound that silences other audio; obeys silent mode and lock.
    case soloAmbient
    /// Non-essential sound that mixes with other audio; obeys silent mode and lock.
    case ambient
    /// Essential output (media, spoken prompts); not silenced; non-mixing unless `mixWithOthers`.
    case playback
    /// Recording only; never mixes; plays on while locked.
    case record
    /// Simultaneous or alternating input and output (VoIP, chat); non-mixing unless `mixWithOthers`.
    case playAndRecord
    /// Distinct streams to several outputs at once (and input); never mixes.
    case multiRoute
    /// Codec work without playback or recording; takes no part in output arbitration.
    case audioProcessing

    public var description: String { rawValue }

    /// Silent mode and screen lock silence this category (G-SILENT, table in §2).
    public var isSilencedBySilentModeAndLock: Bool {
        self == .soloAmbient || self == .ambient
    }

    /// The category makes sound (has an output).
    public var hasOutput: Bool {
        switch self {
        case .soloAmbient, .ambient, .playback, .playAndRecord, .multiRoute: true
        case .record, .audioProcessing: false
        }
    }

    /// The category records (has an input) and therefore needs record permission.
    public var hasInput: Bool {
        switch self {
        case .record, .playAndRecord, .multiRoute: true
        case .soloAmbient, .ambient, .playback, .audioProcessing: false
        }
    }

    /// The category mixes with other audio without any option (only `ambient`).
    public var mixesByDefault: Bool { self == .ambient }
}
