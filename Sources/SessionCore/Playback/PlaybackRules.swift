/// How an app treats the end of an interruption (G-INT-KINDS, G-INT-RESUME, G-INT-MIC).
public enum ResumePolicy: Sendable, Hashable {
    /// An app with playback controls: resume only with shouldResume and only if it was playing.
    case whenShouldResumeAndWasPlaying
    /// An app without playback controls (a game): always reactivate, and resume what was playing.
    case always
    /// Wait for the user: never resume by itself (G-APP-VOIP, G-APP-BROWSER, G-APP-NAV).
    case waitForUser
}

/// When an app holds the remote-control events (G-RC-CONTEXT).
public enum RemoteCommandPolicy: Sendable, Hashable {
    /// Never (mixing apps, G-APP-COOP; games, VoIP, prompts).
    case never
    /// While in an audio context: from the first play to `stop()` (G-APP-MEDIA).
    case whileInAudioContext
    /// Only while playing; given up on pause (G-APP-BROWSER: "register while a video plays").
    case whilePlaying
}

/// The behaviour rules of one kind of app (guidelines §5), applied by `PlaybackController`.
public struct PlaybackRules: Sendable, Hashable {
    /// The app shows play/pause controls (G-INT-KINDS).
    public var hasPlaybackControls: Bool
    /// What to do after *ended* (G-INT-RESUME).
    public var resume: ResumePolicy
    /// Pause when a device of the route goes away (G-HEADPHONES-OUT); false: ignore route changes.
    public var pausesWhenDeviceUnavailable: Bool
    /// Deactivate (with notify-others) whenever playback pauses or ends (G-APP-NAV after each
    /// prompt, G-APP-BROWSER when the clip ends, G-ACTIVATE-MINIMAL).
    public var deactivatesWhenPaused: Bool
    /// When to hold remote-control events (G-RC-CONTEXT).
    public var remoteCommands: RemoteCommandPolicy
    /// Mute output while silent mode is on (G-SILENT: ambient/soloAmbient apps).
    public var obeysSilentMode: Bool
    /// Silence secondary audio (a soundtrack) while another app's primary audio plays
    /// (G-APP-GAME: "soundtrack only when no other audio plays").
    public var followsSecondaryAudioHint: Bool

    /// Rules; see the presets in `AppProfile`.
    public init(hasPlaybackControls: Bool, resume: ResumePolicy, pausesWhenDeviceUnavailable: Bool,
                deactivatesWhenPaused: Bool, remoteCommands: RemoteCommandPolicy,
                obeysSilentMode: Bool = false, followsSecondaryAudioHint: Bool = false) {
        self.hasPlaybackControls = hasPlaybackControls
        self.resume = resume
        self.pausesWhenDeviceUnavailable = pausesWhenDeviceUnavailable
        self.deactivatesWhenPaused = deactivatesWhenPaused
        self.remoteCommands = remoteCommands
        self.obeysSilentMode = obeysSilentMode
        self.followsSecondaryAudioHint = followsSecondaryAudioHint
    }
}
