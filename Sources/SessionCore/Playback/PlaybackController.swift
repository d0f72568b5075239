/// The playback state machine an app drives with its own play/pause and its session's events;
/// it applies the guideline rules and answers with the actions to perform (G-INT-*,
/// G-HEADPHONES-*, G-ROUTE-PICK, G-RC-CONTEXT, G-APP-*). A pure value: no I/O, fully testable.
public struct PlaybackController: Sendable, Hashable {
    /// Where the app's playback stands.
    public enum State: Sendable, Hashable {
        /// Not in an audio context (never started, or stopped).
        case idle
        case playing
        case paused
        /// Waiting for a delayed activation (a call owns audio).
        case waitingForActivation
        /// Interrupted; `wasPlaying` decides a resume (G-INT-RESUME).
        case interrupted(wasPlaying: Bool, reason: InterruptionReason)
    }

    /// The rules applied.
    public let rules: PlaybackRules
    /// The current state.
    public private(set) var state: State = .idle
    /// Whether the app holds the remote-control events (G-RC-CONTEXT).
    public private(set) var holdsRemoteCommands = false

    /// A controller applying `rules`, idle.
    public init(rules: PlaybackRules) {
        self.rules = rules
    }

    /// The app's output should be running.
    public var isPlaying: Bool { state == .playing }

    // MARK: App and user

    /// The user (or app) starts playback: activate, then start output (G-APP-MEDIA: activate on
    /// the user's play; "assume inactive after suspension, reactivate on play").
    public mutating func play() -> [PlaybackAction] {
        if state == .playing { return [] }
        state = .playing
        return [.activateSession, .startOutput] + claimRemoteCommands()
    }

    /// The user pauses (or a prompt/clip ends): pause output; apps that deactivate when paused do
    /// so with notify-others (G-APP-NAV, G-APP-BROWSER). A pause during an interruption cancels the
    /// resume.
    public mutating func pause() -> [PlaybackAction] {
        switch state {
        case .playing, .waitingForActivation:
            state = .paused
            var actions: [PlaybackAction] = [.pauseOutput]
            if rules.deactivatesWhenPaused { actions.append(.deactivateSession(notifyOthers: true)) }
            if rules.remoteCommands == .whilePlaying { actions += releaseRemoteCommands() }
            return actions
        case .interrupted(_, let reason):
            state = .interrupted(wasPlaying: false, reason: reason)
            return []
        case .idle, .paused:
            return []
        }
    }

    /// Leaves the audio context (end of queue, call hung up): deactivate with notify-others so the
    /// interrupted sessions may resume (G-INT-NOTIFY, G-APP-VOIP), give up remote control.
    public mutating func stop() -> [PlaybackAction] {
        if state == .idle { return [] }
        let wasPlaying = state == .playing
        state = .idle
        return (wasPlaying ? [.pauseOutput] : []) + [.deactivateSession(notifyOthers: true)]
            + releaseRemoteCommands()
    }

    /// `activateSession` failed: back to paused, output stopped.
    public mutating func activationFailed(_ error: SessionError) -> [PlaybackAction] {
        guard state == .playing || state == .waitingForActivation else { return [] }
        state = .paused
        return [.pauseOutput]
    }

    /// `activateSession` was queued behind a call: hold output until granted.
    public mutating func activationDelayed() -> [PlaybackAction] {
        guard state == .playing else { return [] }
        state = .waitingForActivation
        return [.pauseOutput]
    }

    // MARK: Session events

    /// Applies the rules to one session event.
    public mutating func handle(_ event: SessionEvent) -> [PlaybackAction] {
        switch event {
        case .interruption(.began(let reason)):
            return interruptionBegan(reason: reason)
        case .interruption(.ended(let options)):
            return interruptionEnded(shouldResume: options.contains(.shouldResume))
        case .routeChange(let change):
            return routeChanged(change)
        case .delayedActivation(.granted):
            guard state == .waitingForActivation else { return [] }
            state = .playing
            return [.startOutput]
        case .delayedActivation(.refused):
            if state == .waitingForActivation { state = .paused }
            return []
        case .mediaServicesLost:
            return interruptionBegan(reason: .default)
        case .mediaServicesReset:
            return [.rebuildPlayers] + interruptionEnded(shouldResume: false)
        case .ducking(let ducking):
            return [.setDucked(ducking == .began)]
        case .silentModeChanged(let on):
            return rules.obeysSilentMode ? [.setMuted(on)] : []
        case .secondaryAudioHint(let hint):
            return rules.followsSecondaryAudioHint ? [.setSecondaryAudioSilenced(hint == .begin)] : []
        case .outputVolumeChanged:
            return []
        }
    }

    /// G-INT-UI: update the UI, stop output, keep session and players.
    mutating func interruptionBegan(reason: InterruptionReason) -> [PlaybackAction] {
        switch state {
        case .playing, .waitingForActivation:
            state = .interrupted(wasPlaying: true, reason: reason)
            return [.pauseOutput, .showInterrupted]
        case .paused:
            state = .interrupted(wasPlaying: false, reason: reason)
            return [.showInterrupted]
        case .idle, .interrupted:
            return []
        }
    }

    /// G-INT-RESUME, G-INT-KINDS, G-INT-MIC.
    mutating func interruptionEnded(shouldResume: Bool) -> [PlaybackAction] {
        guard case .interrupted(let wasPlaying, let reason) = state else { return [] }
        if reason == .builtInMicMuted {
            state = .paused
            return []
        }
        switch rules.resume {
        case .whenShouldResumeAndWasPlaying where shouldResume && wasPlaying:
            state = .playing
            return [.activateSession, .startOutput]
        case .always:
            state = wasPlaying ? .playing : .paused
            return wasPlaying ? [.activateSession, .startOutput] : [.activateSession]
        case .whenShouldResumeAndWasPlaying, .waitForUser:
            state = .paused
            // An app that deactivates when paused (a prompt, a clip) is done: it releases what it
            // held, resumably (G-APP-NAV, G-APP-BROWSER).
            return rules.deactivatesWhenPaused ? [.deactivateSession(notifyOthers: true)] : []
        }
    }

    /// G-HEADPHONES-OUT pauses; G-HEADPHONES-IN and G-ROUTE-PICK keep playing.
    mutating func routeChanged(_ change: RouteChangeEvent) -> [PlaybackAction] {
        guard rules.pausesWhenDeviceUnavailable,
              change.reason == .oldDeviceUnavailable || change.reason == .noSuitableRouteForCategory
        else { return [] }
        switch state {
        case .playing:
            state = .paused
            return [.pauseOutput]
        case .interrupted(true, let reason):
            state = .interrupted(wasPlaying: false, reason: reason)
            return []
        default:
            return []
        }
    }

    private mutating func claimRemoteCommands() -> [PlaybackAction] {
        guard rules.remoteCommands != .never, !holdsRemoteCommands else { return [] }
        holdsRemoteCommands = true
        return [.registerRemoteCommands]
    }

    private mutating func releaseRemoteCommands() -> [PlaybackAction] {
        guard holdsRemoteCommands else { return [] }
        holdsRemoteCommands = false
        return [.unregisterRemoteCommands]
    }
}
