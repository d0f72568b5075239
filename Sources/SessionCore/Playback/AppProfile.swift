/// The kinds of app of guidelines §5.
public enum AppKind: String, Sendable, Hashable, CaseIterable {
    case game, mediaPlayer, voip, metering, browser, navigation, cooperativeMusic
    /// The system UI-sound service analogue (G-UI-SOUNDS, G-SCN-BLOG); not a §5 type.
    case uiSounds
}

/// A preset per app type: the session configuration and the playback rules of the guidelines'
/// table (§5, G-APP-*). Apply it with `AudioSession.apply(_:)`.
public struct AppProfile: Sendable, Hashable {
    /// The app type.
    public var kind: AppKind
    /// The session configuration of the guidelines' table.
    public var configuration: SessionConfiguration
    /// The playback rules of the guidelines' table.
    public var rules: PlaybackRules
    /// The app records and must ask for permission itself before activating.
    public var needsRecordPermission: Bool { configuration.category.hasInput }

    /// A custom profile.
    public init(kind: AppKind, configuration: SessionConfiguration, rules: PlaybackRules) {
        self.kind = kind
        self.configuration = configuration
        self.rules = rules
    }

    /// G-APP-GAME, G-SCN-GAME: *ambient* if other audio plays at launch (the user's music goes
    /// on), else *soloAmbient*; never ask the user. No controls: always resume after *ended*;
    /// ignore route changes; no remote commands; mute in silent mode; soundtrack only while no
    /// other primary audio plays (secondary-audio hint).
    public static func game(otherAudioIsPlaying: Bool) -> AppProfile {
        AppProfile(kind: .game,
                   configuration: SessionConfiguration(otherAudioIsPlaying ? .ambient : .soloAmbient),
                   rules: PlaybackRules(hasPlaybackControls: false, resume: .always,
                                        pausesWhenDeviceUnavailable: false,
                                        deactivatesWhenPaused: false, remoteCommands: .never,
                                        obeysSilentMode: true, followsSecondaryAudioHint: true))
    }

    /// G-APP-MEDIA: playback (playAndRecord for an app that records — preferred over record);
    /// activate on the user's play, stay active; honour shouldResume and resume only what was
    /// playing; pause on unplug keeping the session; remote commands while in the audio context.
    public static func mediaPlayer(records: Bool = false) -> AppProfile {
        AppProfile(kind: .mediaPlayer,
                   configuration: SessionConfiguration(records ? .playAndRecord : .playback),
                   rules: PlaybackRules(hasPlaybackControls: true, resume: .whenShouldResumeAndWasPlaying,
                                        pausesWhenDeviceUnavailable: true,
                                        deactivatesWhenPaused: false,
                                        remoteCommands: .whileInAudioContext))
    }

    /// G-APP-VOIP, G-SCN-VOIP: non-mixing playAndRecord in voiceChat (videoChat with `video`) mode,
    /// which makes it a call (G-CALLS); Bluetooth headsets allowed. Active only during a call
    /// (`play()` = answer/place, `stop()` = hang up, deactivating with notify-others); never
    /// reactivates after an interruption; ignores route changes.
    public static func voip(video: Bool = false) -> AppProfile {
        AppProfile(kind: .voip,
                   configuration: SessionConfiguration(.playAndRecord, mode: video ? .videoChat : .voiceChat,
                                                       options: [.allowBluetooth]),
                   rules: PlaybackRules(hasPlaybackControls: true, resume: .waitForUser,
                                        pausesWhenDeviceUnavailable: false,
                                        deactivatesWhenPaused: false, remoteCommands: .never))
    }

    /// G-APP-METER: non-mixing playAndRecord in measurement mode; always reactivate after *ended*;
    /// ignore route changes.
    public static let metering = AppProfile(
        kind: .metering,
        configuration: SessionConfiguration(.playAndRecord, mode: .measurement),
        rules: PlaybackRules(hasPlaybackControls: false, resume: .always,
                             pausesWhenDeviceUnavailable: false, deactivatesWhenPaused: false,
                             remoteCommands: .never))

    /// G-APP-BROWSER: non-mixing playback (ignores silent mode); wait for the user's play;
    /// deactivate with notify-others when the clip ends; pause on unplug; remote commands only
    /// while a clip plays; wait for the user after *ended*.
    public static let browser = AppProfile(
        kind: .browser,
        configuration: SessionConfiguration(.playback),
        rules: PlaybackRules(hasPlaybackControls: true, resume: .waitForUser,
                             pausesWhenDeviceUnavailable: true, deactivatesWhenPaused: true,
                             remoteCommands: .whilePlaying))

    /// G-APP-NAV, G-SCN-NAV: playback, voicePrompt mode, mixing and ducking others (and pausing
    /// spoken audio such as podcasts, resumably); activate per prompt and always deactivate after
    /// it with notify-others; ignore interruptions and route changes.
    public static let navigation = AppProfile(
        kind: .navigation,
        configuration: SessionConfiguration(.playback, mode: .voicePrompt,
                                            options: [.mixWithOthers, .duckOthers,
                                                      .interruptSpokenAudioAndMixWithOthers]),
        rules: PlaybackRules(hasPlaybackControls: false, resume: .waitForUser,
                             pausesWhenDeviceUnavailable: false, deactivatesWhenPaused: true,
                             remoteCommands: .never))

    /// G-APP-COOP: playback mixing with others; never remote commands. Without start/stop UI it
    /// follows the game rules (always resume); with it, activate only on the user's play and
    /// honour shouldResume.
    public static func cooperativeMusic(hasTransportControls: Bool) -> AppProfile {
        AppProfile(kind: .cooperativeMusic,
                   configuration: SessionConfiguration(.playback, options: [.mixWithOthers]),
                   rules: PlaybackRules(hasPlaybackControls: hasTransportControls,
                                        resume: hasTransportControls ? .whenShouldResumeAndWasPlaying : .always,
                                        pausesWhenDeviceUnavailable: hasTransportControls,
                                        deactivatesWhenPaused: false, remoteCommands: .never,
                                        followsSecondaryAudioHint: !hasTransportControls))
    }
}

extension AppProfile {
    /// G-SCN-BLOG, G-UI-SOUNDS: short non-essential UI sounds (launch, confirmation, failure alert)
    /// of an app whose sound is not essential: ambient, so they mix with the user's audio, are
    /// silenced by silent mode and cannot play while locked — the behaviour of the system UI-sound
    /// service. Not one of the §5 app types; its kind is `.uiSounds`.
    public static let uiSounds = AppProfile(
        kind: .uiSounds,
        configuration: SessionConfiguration(.ambient),
        rules: PlaybackRules(hasPlaybackControls: false, resume: .waitForUser,
                             pausesWhenDeviceUnavailable: false, deactivatesWhenPaused: true,
                             remoteCommands: .never, obeysSilentMode: true))
}
