import AppClassification
import AudioPolicyClient
import AudioServer
import SessionCore

/// What the daemon hands the stream policy so that apps without our API get implicit sessions
/// (`StreamPolicy.enableImplicitSessions`).
public struct ImplicitSessionSetup: Sendable {
    /// The daemon's engine, where the implicit sessions live beside its clients' and the MPRIS
    /// players' sessions.
    public var system: AudioSystem
    /// The daemon's one list of sessions: each implicit session is numbered and entered there.
    public var sessions: SessionDirectory
    /// The user's apps file.
    public var rules: AppRules
    public var timing: CallTiming
    /// Whether the end of an implicit call notifies the sessions it interrupted, so that paused
    /// players play again (G-INT-RESUME, G-INT-NOTIFY). On by default: the call was not the
    /// user's reason to stop the music.
    public var resumeAfterCalls: Bool

    public init(system: AudioSystem, sessions: SessionDirectory, rules: AppRules = AppRules(),
                timing: CallTiming = .standard, resumeAfterCalls: Bool = true) {
        self.system = system
        self.sessions = sessions
        self.rules = rules
        self.timing = timing
        self.resumeAfterCalls = resumeAfterCalls
    }
}

/// One app's implicit session in the engine.
struct ImplicitSession: Sendable {
    var key: AppKey
    var number: UInt64
    var session: AudioSession
    var streamClass: StreamClass
    var configuration: SessionConfiguration
    /// How the log and the status name it: "ZOOM VoiceEngine (pid 4242)".
    var label: String
    /// Asked to be active (granted, or waiting for a call to end).
    var isActive = false

    /// Its deactivation notifies the sessions it interrupted: a call (if configured), and
    /// anything that mixes (a prompt that paused a podcast); never non-mixing media, whose end
    /// is no reason for the others to resume (G-INT-NOTIFY).
    func notifiesOnDeactivation(resumeAfterCalls: Bool) -> Bool {
        let traits = configuration.traits
        return traits.isCall ? resumeAfterCalls : traits.isMixable
    }
}

/// The implicit sessions' part of `StreamPolicy.State`.
struct ImplicitState: Sendable {
    var setup: ImplicitSessionSetup?
    var classifier = StreamClassifier()
    /// The rules of the last reload (`setRules`), if any came.
    var reloadedRules: AppRules?
    var clocks = ImplicitPlan.CallClocks()
    var sessions: [AppKey: ImplicitSession] = [:]
    /// The apps with streams now, for the status.
    var rows: [AppKey: PolicyStatus.App] = [:]
    /// Why a present app is not (yet) a call.
    var waiting: [AppKey: String] = [:]
    /// Apps whose streams are gone, newest first (at most `goneLimit`), for `mprisd apps`.
    var gone: [PolicyStatus.App] = []
    /// The timer that decides again when a grace period or a minimum time runs out.
    var wake: PolicyTimer?
    var wakeAt: ContinuousClock.Instant?
    /// The engine's conditions (silent mode, lock), followed while enabled.
    var conditions: EventSubscription?
    var isSilentMode = false
    var isLocked = false

    static let goneLimit = 32
}
