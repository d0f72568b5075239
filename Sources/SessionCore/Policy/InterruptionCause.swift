/// What holds a session interrupted. Every interrupted session has exactly one cause; when the cause
/// goes away the session either moves to the next cause that still blocks it or receives *ended*.
public enum InterruptionCause: Sendable, Hashable {
    /// Another session (G-INT-KINDS); it decides the kind when it deactivates (G-INT-NOTIFY).
    case session(SessionID)
    /// The screen is locked or the app is in background: ambient/soloAmbient cannot play (G-SILENT,
    /// §6 mapping of background). Ended with shouldResume on unlock / return to foreground.
    case suspended
    /// The built-in mic is muted by hardware (ended without shouldResume — G-INT-MIC).
    case builtInMicMuted
    /// No port fits the category (ended without shouldResume when one returns).
    case routeDisconnected
    /// The system is about to sleep (logind's `PrepareForSleep(true)`); held until it wakes, then
    /// ended without shouldResume: after the wake-up the sound would come back on whatever output
    /// is there then (the G-HEADPHONES-OUT reasoning).
    case sleep
}
