/// The apps that know nothing of mprisd, as the daemon sees them through the audio server: each
/// app with streams gets an implicit session whose class says how the guidelines treat it
/// (docs/audio-policy-api.md, "Status document"; docs/calls-and-prompts.md).
extension PolicyStatus {
    /// One app (one process, or one Flatpak app) seen on the audio server: its implicit session,
    /// the rule that classified it and what the session is doing now. Apps whose streams are
    /// gone stay listed for a while (`present` false), so that `mprisd apps` can still write a
    /// rule for the app that just played.
    public struct App: Codable, Sendable, Hashable {
        /// `application.name` of its first stream ("ZOOM VoiceEngine", "Chromium input").
        public var application: String
        /// `application.process.binary`.
        public var binary: String?
        /// `application.process.id`.
        public var pid: Int32?
        /// The Flatpak app id, if it runs in one.
        public var flatpak: String?
        /// `media.role` of its streams, as reported (the first that has one).
        public var role: String?
        /// The class (`call`, `prompt`, `screenReader`, `systemSound`, `game`, `media`, `mixing`,
        /// `ignore`, `custom`), as a rule in the apps file names it.
        public var appClass: String
        /// The session's configuration ("playAndRecord/voiceChat"), nil for `ignore`.
        public var configuration: String?
        /// Why ("rule line 3", "role: phone", "name table: ZOOM VoiceEngine", "default").
        public var reason: String
        /// Its implicit session's number (the daemon's one numbering); nil: none (ignored, gone).
        public var session: UInt64?
        /// What its session is now: "inactive", "active", "interrupted by …", "ducked",
        /// "waiting (heuristic call: 1.2 s of 3 s)", "silenced by silent mode".
        public var state: String
        /// Its streams now, as "playback 12" / "capture 3".
        public var streams: [String]
        /// It has streams now (false: gone, remembered for `mprisd apps`).
        public var present: Bool

        public init(application: String, binary: String? = nil, pid: Int32? = nil, flatpak: String? = nil,
                    role: String? = nil, appClass: String, configuration: String? = nil, reason: String,
                    session: UInt64? = nil, state: String, streams: [String] = [], present: Bool = true) {
            self.application = application
            self.binary = binary
            self.pid = pid
            self.flatpak = flatpak
            self.role = role
            self.appClass = appClass
            self.configuration = configuration
            self.reason = reason
            self.session = session
            self.state = state
            self.streams = streams
            self.present = present
        }
    }
}
