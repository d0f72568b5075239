/// A read-only view of one session for callers and tests.
public struct SessionSnapshot: Sendable, Hashable {
    /// The session.
    public var id: SessionID
    /// The configuration in effect (G-CAT-OPTIONS).
    public var configuration: SessionConfiguration
    /// The session is active: its audio may play (G-ACTIVATE-MINIMAL).
    public var isActive: Bool
    /// What holds the session interrupted; nil when it is not interrupted.
    public var interruptedBy: InterruptionCause?
    /// Another active session's duckOthers makes it quieter (G-CAT-OPTIONS).
    public var isDucked: Bool
    /// An activation is queued behind a call.
    public var isActivationPending: Bool
    /// The ports it uses now (G-HEADPHONES-IN/OUT, G-ROUTE-PICK).
    public var route: AudioRoute
    /// The user's answer about recording.
    public var recordPermission: RecordPermission
    /// Its I/O runs (deactivating now fails with `isBusy`).
    public var isIORunning: Bool
    /// Its app declared itself in background (ambient/soloAmbient cannot play — G-SILENT).
    public var isInBackground: Bool

    /// Interrupted: a *began* without its *ended* yet (G-INT-KINDS).
    public var isInterrupted: Bool { interruptedBy != nil }
}
