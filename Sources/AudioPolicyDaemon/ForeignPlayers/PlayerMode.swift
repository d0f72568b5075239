import AppClassification
import SessionCore
import SystemContext

/// Whether a foreign player plays *spoken audio* (a podcast, an audiobook), and why.
///
/// Spoken audio is paused, not ducked, by a navigation or speech prompt, for exactly as long as
/// the prompt plays (G-SCN-NAV, G-APP-NAV; what users ask for: AntennaPod#2811, speechd#880 —
/// words under a ducked prompt are lost). The policy engine already does that for a
/// session in mode `spokenAudio` (`InterruptionRules`: `interruptSpokenAudioAndMixWithOthers`
/// interrupts it resumably), so the tracker only has to put the player's session in that mode.
///
/// Decided in this order:
/// 1. the user's `player NAME = …` rule (`AppRules.PlayerRule`; G-CAT-SEMANTIC: the user knows
///    what the player plays), either way;
/// 2. the current track's metadata (`SpokenAudioMetadata`), re-read on every track change;
/// 3. otherwise plain playback: music is ducked, never paused, by a prompt.
struct PlayerMode: Sendable, Hashable {
    var spokenAudio: Bool
    /// Why, for the log and `mprisd status`: `rule line 3`, `genre 'Podcast'`; nil when nothing
    /// says anything (plain playback by default).
    var reason: String?

    /// The mode of the player's session (category playback).
    var sessionMode: SessionMode { spokenAudio ? .spokenAudio : .default }

    static let plain = PlayerMode(spokenAudio: false, reason: nil)

    /// The mode for the player owning `busName`, with `identity` and `properties`, under `rules`.
    static func decide(busName: String, identity: String?, properties: MPRISPlayerProperties,
                       rules: AppRules) -> PlayerMode {
        if let rule = rules.playerRule(busName: busName, identity: identity) {
            return PlayerMode(spokenAudio: rule.spokenAudio, reason: "rule line \(rule.line)")
        }
        if let genre = SpokenAudioMetadata.spokenGenre(in: properties.genres ?? []) {
            return PlayerMode(spokenAudio: true, reason: "genre \(Excerpt.quoted(genre))")
        }
        return .plain
    }
}

/// What in a track's MPRIS metadata says it is spoken audio.
///
/// Only `xesam:genre`, matched without regard to case by containment of one of `genreWords`:
/// - `podcast` (ID3 genre 186 "Podcast"; iTunes and most podcast apps tag episodes so),
/// - `audiobook`, `audio book` (ID3 183 "Audiobook"; "Audiobooks" too),
/// - `spoken` (iTunes' "Spoken Word"), `speech` (ID3 101 "Speech"),
/// - `audio theatre`, `audio theater`, `audio drama` (ID3 184 "Audio Theatre"; radio plays).
///
/// Not `xesam:url` nor `mpris:trackid`: a file name or a player's private track id (Spotify's
/// `spotify:episode:…`) is a guess about one player's habits, and a wrong guess pauses the user's
/// music under every prompt. Nor a track's length: long music exists. A player whose metadata
/// says nothing is music unless a rule says otherwise.
enum SpokenAudioMetadata {
    static let genreWords = ["podcast", "audiobook", "audio book", "spoken", "speech",
                             "audio theatre", "audio theater", "audio drama"]

    /// The first of `genres` that names spoken audio, nil when none does.
    static func spokenGenre(in genres: [String]) -> String? {
        genres.first { genre in
            let lowered = genre.lowercased()
            return genreWords.contains { lowered.contains($0) }
        }
    }
}
