import SessionCore

/// The `media.role` that `mprisd run` gives its program's streams (issue 15), through
/// `PULSE_PROP_media.role` in the program's environment. libpulse fills a stream property from
/// `PULSE_PROP_*` only when the program sets none itself, so a program that names its own role
/// keeps it; and a `PULSE_PROP_media.role` the user already has in the environment is left as it
/// is (the user's choice wins over ours).
///
/// Only roles the servers understand through libpulse are used (PulseAudio's module-role-* and
/// pipewire-pulse's table, which renames them natively: phone → Communication, music → Music,
/// video → Movie, game → Game), plus `navigation`, WirePlumber's prompt role, which keeps its name.
///
/// | configuration (mode as it takes effect) | role | why |
/// |---|---|---|
/// | playAndRecord + voiceChat / videoChat, not mixing (a call, G-CALLS) | phone | the servers' call role (PulseAudio's role-cork, WirePlumber's headset profile) |
/// | playback / playAndRecord + voicePrompt | navigation | a spoken prompt that ducks others (G-SCN-NAV) |
/// | playback + moviePlayback | video | |
/// | playback (default), playback + spokenAudio | music | media the user chose; not `speech`, which the daemon reads as a prompt that ducks others — a podcast is ducked or paused, it ducks nothing |
/// | playAndRecord + gameChat | game | in-game voice chat is not a call |
/// | soloAmbient, ambient | game | the game categories (G-APP-GAME, G-SCN-GAME); not `event`: notification sounds go through the system's sound service (G-UI-SOUNDS), and `event` streams sit under the desktop's alert volume |
/// | record, a mixing voice/video chat, other playAndRecord, playback + measurement, multiRoute, audioProcessing | none | no role says what they are (a mixing chat tagged `phone` would make the servers' own call policy silence others); and a role makes the servers remember volume and mute per role, so a made-up one would merge every recorder's level into one |
enum RunMediaRole {
    /// The environment variable libpulse reads (`PULSE_PROP_` + the property name).
    static let variable = "PULSE_PROP_media.role"

    /// The role for `configuration`, or nil when none fits (see the table above). A mode that is
    /// not valid for the category counts as `.default`, as it does in the session.
    static func role(for configuration: SessionConfiguration) -> String? {
        let mode = configuration.mode.isValid(for: configuration.category) ? configuration.mode : .default
        switch (configuration.category, mode) {
        case (.playAndRecord, .voiceChat), (.playAndRecord, .videoChat):
            var effective = configuration
            effective.mode = mode
            return effective.traits.isCall ? "phone" : nil
        case (.playback, .voicePrompt), (.playAndRecord, .voicePrompt): return "navigation"
        case (.playback, .moviePlayback): return "video"
        case (.playback, .default), (.playback, .spokenAudio): return "music"
        case (.playAndRecord, .gameChat): return "game"
        case (.soloAmbient, _), (.ambient, _): return "game"
        default: return nil
        }
    }

    /// `environment` (`NAME=VALUE` entries) with `PULSE_PROP_media.role=ROLE` appended, unless
    /// there is no role for `configuration` or the user already set the variable (any value,
    /// even empty: theirs wins).
    static func environment(_ environment: [String], for configuration: SessionConfiguration) -> [String] {
        guard let role = role(for: configuration) else { return environment }
        let prefix = variable + "="
        if environment.contains(where: { $0.hasPrefix(prefix) }) { return environment }
        return environment + [prefix + role]
    }
}
