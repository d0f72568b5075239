import SessionCore

/// A stream's `media.role`, understood under both its PulseAudio name and its native PipeWire
/// name, without regard to case: through pactl most roles come back as set, but native PipeWire
/// clients show Communication, Notification, Accessibility, Movie, Music, Game and Navigation,
/// Alert, Emergency with their capitals (audio-server-notes.md, "How real apps tag their streams").
///
/// The two vocabularies meet in one table, `pipeWireNames` — pipewire-pulse's own (its `remap.c`),
/// read in both directions. One direction loses a word: pipewire-pulse stores a pulse client's
/// `animation` as `Movie`, which it gives back as `video` (its first pulse name), and keeps nothing
/// else of it (measured on PipeWire 0.3.65: WirePlumber even files the stream's volume under
/// `video`). So a pulse client's `video` through pipewire-pulse may be an animation sound.
/// `StreamClassifier` asks `roles(_:throughPipeWirePulse:)` and holds such a stream's class until
/// it has played long enough to be the video it says it is.
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

    /// pipewire-pulse's renaming of pulse roles into PipeWire's, in its own order: a native name
    /// read back by a pulse client is the first pulse role of that name. Roles not here keep their
    /// name on both sides (navigation, alert, emergency, speech, assistant).
    public static let pipeWireNames: KeyValuePairs<MediaRole, String> = [
        .video: "Movie", .music: "Music", .game: "Game", .event: "Notification", .phone: "Communication",
        .animation: "Movie", .production: "Production", .a11y: "Accessibility", .test: "Test",
    ]

    /// The native PipeWire name of this role (`Movie` for video and animation alike).
    public var pipeWireName: String {
        Self.pipeWireNames.first { $0.key == self }?.value ?? rawValue.capitalized
    }

    /// Every accepted spelling, lowercased: the pulse names and PipeWire's native ones, a native
    /// name standing for its first pulse role (as pipewire-pulse reads it back).
    public static let spellings: [String: MediaRole] = {
        var table = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })
        for (role, name) in pipeWireNames where table[name.lowercased()] == nil {
            table[name.lowercased()] = role
        }
        return table
    }()

    /// The roles a stream reporting `text` may have been given: the one `text` names, and, for a
    /// pulse client of pipewire-pulse, every pulse role stored under the same native name
    /// (`video` → video, animation). Empty for a role not understood.
    public static func roles(_ text: String, throughPipeWirePulse: Bool) -> [MediaRole] {
        guard let role = MediaRole(text) else { return [] }
        guard throughPipeWirePulse else { return [role] }
        let name = role.pipeWireName
        return [role] + pipeWireNames.filter { $0.value == name && $0.key != role }.map(\.key)
    }

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
