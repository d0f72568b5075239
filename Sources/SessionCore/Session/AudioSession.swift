/// What `AudioSession.setActive` achieved.
public enum ActivationResult: Sendable, Hashable {
    /// The session is active (after `setActive(true)`).
    case active
    /// A call owns audio; the activation is queued and `.delayedActivation(.granted)` follows when
    /// it ends (G-CALLS).
    case delayed
    /// The session is inactive (after `setActive(false)`).
    case inactive
}

/// An app's audio session: it declares how the app's sound interacts with other audio and receives
/// interruptions and route changes (guidelines §2–3). It makes no sound itself.
///
/// Created by `AudioSystem.makeSession`; releasing the object removes the session (everything it
/// caused is undone). Thread-safe.
public final class AudioSession: Sendable {
    /// The engine's id of this session.
    public let id: SessionID
    /// The system this session belongs to.
    public let system: AudioSystem
    let hub: EventHub

    init(id: SessionID, system: AudioSystem, hub: EventHub) {
        self.id = id
        self.system = system
        self.hub = hub
    }

    deinit { system.remove(id) }

    private func snapshot() -> SessionSnapshot? {
        system.host.withLock { $0.engine.session(id) }
    }

    // MARK: Configuration (G-CAT-SEMANTIC, G-CAT-OPTIONS, G-CAT-STABLE)

    /// Sets category, mode and options. Throws `badParam(.optionNotAllowed(option:category:))` for an
    /// option that does not fit the category (the previous configuration stays); options are not
    /// sticky. The result reports a mode that is not valid for the category (it behaves as default).
    @discardableResult
    public func setCategory(_ category: SessionCategory, mode: SessionMode = .default,
                            options: SessionOptions = []) throws(SessionError) -> ConfigurationChange {
        let configuration = SessionConfiguration(category, mode: mode, options: options)
        return try system.perform { engine throws(SessionError) in
            let change = try engine.configure(id, configuration)
            return (change, change.effects)
        }
    }

    /// The configuration in effect.
    public var configuration: SessionConfiguration { snapshot()?.configuration ?? SessionConfiguration() }
    /// The category in effect (G-CAT-SEMANTIC).
    public var category: SessionCategory { configuration.category }
    /// The effective mode (`.default` when the requested one did not fit the category).
    public var mode: SessionMode { configuration.mode }
    /// The options in effect (G-CAT-OPTIONS).
    public var options: SessionOptions { configuration.options }

    // MARK: Activation (G-ACTIVATE-MINIMAL, G-INT-NOTIFY, G-CALLS)

    /// Activates or deactivates the session; see `PolicyEngine.activate` and `.deactivate`.
    /// `isBusy` is thrown *after* deactivating (the session is inactive).
    @discardableResult
    public func setActive(_ active: Bool, options: ActivationOptions = []) throws(SessionError)
        -> ActivationResult {
        let delayed = try system.perform { engine throws(SessionError) in
            let decision = engine.setActive(id, active, options: options)
            switch decision.outcome {
            case .done: return (Result<Bool, SessionError>.success(false), decision.effects)
            case .delayed: return (.success(true), decision.effects)
            case .failed(let error): return (.failure(error), decision.effects)
            }
        }.get()
        return active ? (delayed ? .delayed : .active) : .inactive
    }

    /// Tells the engine whether the app's audio I/O runs (`sessionNotActive` when starting I/O on an
    /// inactive session).
    public func setIORunning(_ running: Bool) throws(SessionError) {
        try system.perform { engine throws(SessionError) in
            try engine.setIORunning(id, running)
            return ((), [])
        }
    }

    /// Declares the app in background or foreground (guidelines §6): ambient/soloAmbient sessions
    /// stop in background and resume in foreground, like on screen lock (G-SILENT).
    public func setInBackground(_ background: Bool) throws(SessionError) {
        try system.perform { engine throws(SessionError) in ((), try engine.setInBackground(id, background)) }
    }

    /// The app is declared in background.
    public var isInBackground: Bool { snapshot()?.isInBackground ?? false }

    // MARK: Record permission (G-APP-MEDIA, G-APP-VOIP, G-APP-METER)

    /// The user's answer about recording.
    public var recordPermission: RecordPermission { snapshot()?.recordPermission ?? .undetermined }

    /// Asks for record permission if not yet determined and returns the answer.
    @discardableResult
    public func requestRecordPermission() -> RecordPermission {
        let current = recordPermission
        guard current == .undetermined else { return current }
        let answer = system.recordPermissionDecider(id)
        system.apply { engine in
            try? engine.setRecordPermission(id, answer)
            return []
        }
        return answer
    }

    // MARK: State

    /// The session is active (G-ACTIVATE-MINIMAL).
    public var isActive: Bool { snapshot()?.isActive ?? false }
    /// Interrupted and not yet ended.
    public var isInterrupted: Bool { snapshot()?.isInterrupted ?? false }
    /// Ducked by another session's duckOthers.
    public var isDucked: Bool { snapshot()?.isDucked ?? false }
    /// The session's current route.
    public var currentRoute: AudioRoute { snapshot()?.route ?? .none }
    /// Connected input ports.
    public var availableInputs: [AudioPort] { system.conditions.availableInputs }
    /// Connected output ports (G-ROUTE-PICK offers these).
    public var availableOutputs: [AudioPort] { system.conditions.availableOutputs }
    /// The user's route pick (G-ROUTE-PICK).
    public var routeOverride: String? { system.conditions.routeOverride }
    /// Other audio plays (G-SCN-GAME launch check).
    public var isOtherAudioPlaying: Bool { system.host.withLock { $0.engine.isOtherAudioPlaying(for: id) } }
    /// Another session's primary audio plays: silence a game soundtrack (G-APP-GAME).
    public var secondaryAudioShouldBeSilencedHint: Bool {
        system.host.withLock { $0.engine.secondaryAudioShouldBeSilencedHint(for: id) }
    }
    /// The system output volume, read-only (G-VOLUME).
    public var outputVolume: Double { system.conditions.outputVolume }
    /// Silenced by silent mode (G-SILENT: ambient/soloAmbient only).
    public var isSilenced: Bool { system.host.withLock { $0.engine.isSilenced(id) } }
    /// Silent mode is on (G-SILENT).
    public var isSilentMode: Bool { system.conditions.isSilentMode }
    /// The screen is locked (ambient/soloAmbient cannot play — G-SILENT).
    public var isLocked: Bool { system.conditions.isLocked }
}
