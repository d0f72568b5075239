import SessionCore

/// A stream's `media.role`, understood under both its PulseAudio name and its native PipeWire
/// name, without regard to case: through pactl most roles come back as set, but native PipeWire
/// clients show Communication, Notification, Accessibility, Movie, Music, Game (mapped back to
/// phone, event, a11y, video, music, game by pipewire-pulse) and Navigation, Alert, Emergency
/// with their capitals (audio-server-notes.md, "How real apps tag their streams").
///
/// A role not listed here is not understood: the classifier then goes on to the name table.
public enum MediaRole: String, Sendable, Hashable, CaseIterable {
    case music, video, game, event, phone, a11y
    case navigation, speech, assistant, alert, emergency
    case production, animation, test

    /// The role `text` names (`phone`, `Communication`, `EVENT`…), nil for one not understood.
    public init?(_ text: String) {
        guard let role = Self.spellings[text.lowercased()] else { return nil }
        self = role
    }

    /// Every accepted spelling, lowercased: the pulse names and PipeWire's native ones.
    public static let spellings: [String: MediaRole] = {
        var table = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })
        table["movie"] = .video
        table["communication"] = .phone
        table["notification"] = .event
        table["accessibility"] = .a11y
        return table
    }()

    /// What an app playing or recording with this role is.
    public var appClass: AppClass {
        switch self {
        // G-APP-MEDIA: what the user chose to hear.
        case .music, .video: .media
        // G-APP-GAME: the user's own music keeps playing.
        case .game: .game
        // G-UI-SOUNDS, G-SILENT: mixes, silenced by silent mode and the lock.
        case .event, .alert, .animation: .systemSound
        // G-CALLS, G-SCN-VOIP.
        case .phone: .call
        // Assistive speech is never ducked or interrupted.
        case .a11y: .screenReader
        // G-SCN-NAV, G-APP-NAV. An emergency warning must be heard: playback is never silenced
        // by silent mode, and it ducks everything else; it records nothing, so it is no call.
        case .navigation, .speech, .assistant, .emergency: .prompt
        // Audio production (a DAW): mixes and interrupts nothing, as an unknown app; the user
        // decides what plays with it.
        case .production: .mixing
        // A test sound (a speaker test) the user just asked for: left alone.
        case .test: .ignore
        }
    }

    /// The configuration an app of this role is given; video is `moviePlayback`.
    public var configuration: SessionConfiguration? {
        self == .video ? SessionConfiguration(.playback, mode: .moviePlayback) : appClass.configuration
    }
}
