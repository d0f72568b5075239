import AudioServer

/// The built-in table of apps that tag their streams with no `media.role` (WirePlumber ships the
/// same list of apps that "do not set media.role correctly or at all"; audio-server-notes.md).
/// Matched on `application.name` without regard to case, after the user's rules and the role.
///
/// Call clients are calls at once: their capture stream begins a call (G-CALLS). A browser's
/// generic input ("Chromium input"…; Firefox names both directions "Firefox") is only a
/// *heuristic* call: it is a call when playback of the same process is held with it for a
/// minimum time (voice search or dictation opening the microphone for two seconds is not a
/// call). This table only marks them; the timing is the caller's.
public enum KnownApps {
    /// One entry of the table.
    public struct Entry: Sendable, Hashable {
        /// The `application.name` as the app sets it.
        public var name: String
        /// A heuristic call: a call only with playback of the same process held long enough.
        public var isHeuristic: Bool
        /// The only direction the entry applies to (Firefox's playback is no call), nil for both.
        public var direction: StreamDirection?
    }

    /// Call clients and the browsers' inputs, in the order they are documented.
    public static let entries: [Entry] = [
        Entry(name: "ZOOM VoiceEngine", isHeuristic: false, direction: nil),
        Entry(name: "WEBRTC VoiceEngine", isHeuristic: false, direction: nil), // Discord
        Entry(name: "Signal Calling", isHeuristic: false, direction: nil),
        Entry(name: "Telegram Desktop", isHeuristic: false, direction: nil),
        Entry(name: "linphone", isHeuristic: false, direction: nil),
        Entry(name: "Mumble", isHeuristic: false, direction: nil),
        Entry(name: "Skype", isHeuristic: false, direction: nil),
        Entry(name: "Chromium input", isHeuristic: true, direction: .capture),
        Entry(name: "Google Chrome input", isHeuristic: true, direction: .capture),
        Entry(name: "Brave input", isHeuristic: true, direction: .capture),
        Entry(name: "Microsoft Edge input", isHeuristic: true, direction: .capture),
        Entry(name: "Vivaldi input", isHeuristic: true, direction: .capture),
        Entry(name: "Firefox", isHeuristic: true, direction: .capture),
    ]

    private static let byName: [String: Entry] =
        Dictionary(entries.map { ($0.name.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })

    /// The entry for `stream`, nil when its name is not in the table (or the entry is for the
    /// other direction).
    public static func entry(for stream: AudioStream) -> Entry? {
        guard let name = stream.applicationName, let entry = byName[name.lowercased()] else { return nil }
        if let direction = entry.direction, direction != stream.id.direction { return nil }
        return entry
    }
}
