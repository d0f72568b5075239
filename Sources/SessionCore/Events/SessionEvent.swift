/// Begin/end of the hint that secondary audio (a game soundtrack) should be silenced because
/// another session's primary, non-mixing audio plays (field notes; G-SCN-GAME).
public enum SecondaryAudioHint: Sendable, Hashable {
    case begin
    case end
}

/// Begin/end of ducking of one session (G-CAT-OPTIONS: duckOthers). A daemon lowers a foreign
/// player's volume on `.began` and restores the exact prior value on `.ended`.
public enum DuckingEvent: Sendable, Hashable {
    case began
    case ended
}

/// The fate of an activation that was queued behind a call (G-CALLS, delayed activation).
public enum DelayedActivationEvent: Sendable, Hashable {
    /// The call ended and the session is active now.
    case granted
    /// The queued activation could not be granted (e.g. the screen is locked).
    case refused(SessionError)
}

/// Everything the engine tells a session.
public enum SessionEvent: Sendable, Hashable {
    case interruption(InterruptionEvent)
    case routeChange(RouteChangeEvent)
    case secondaryAudioHint(SecondaryAudioHint)
    case ducking(DuckingEvent)
    case delayedActivation(DelayedActivationEvent)
    /// Silent mode changed; ambient/soloAmbient are silenced while it is on (G-SILENT).
    case silentModeChanged(Bool)
    /// The system output volume changed (G-VOLUME; read-only for apps).
    case outputVolumeChanged(Double)
    /// Media services went away; every activation fails with `mediaServicesFailed` until reset.
    case mediaServicesLost
    /// Media services are back: rebuild players and reconfigure the session.
    case mediaServicesReset
}
