/// What an app needs from its audio session, wherever the policy engine runs: in this process
/// (`AudioSession`, the embedded default) or in the policy daemon (`RemoteSession` of
/// AudioPolicyClient), so that an app — `mprisd play` — obeys the daemon's decisions when one runs
/// and the same rules in-process otherwise. The playback glue (`apply(_:)`, `perform`) and the
/// MPRIS endpoint's audio-context gate are written against this.
public protocol AudioSessionHandle: AnyObject, Sendable {
    /// The configuration in effect.
    var configuration: SessionConfiguration { get }
    /// Whether the session is active.
    var isActive: Bool { get }
    /// Whether an interruption began and has not ended.
    var isInterrupted: Bool { get }
    /// The ports the session's audio goes to and comes from.
    var currentRoute: AudioRoute { get }

    /// Sets category, mode and options (G-CAT-OPTIONS).
    func configure(_ configuration: SessionConfiguration) throws(SessionError)
    /// Activates or deactivates (G-ACTIVATE-MINIMAL, G-INT-NOTIFY, G-CALLS).
    @discardableResult
    func setActive(_ active: Bool, options: ActivationOptions) throws(SessionError) -> ActivationResult
    /// Asks for permission to record (a desktop grants by default).
    @discardableResult
    func requestRecordPermission() -> RecordPermission
    /// Calls `handler` for every event of the session, in decision order, until cancelled — on one
    /// serial event thread, never inside the call that caused the event (`AudioSystem`'s thread
    /// in-process, the `PolicyClient`'s event thread for the daemon's sessions).
    func onEvent(_ handler: @escaping @Sendable (SessionEvent) -> Void) -> EventSubscription
}

extension AudioSession: AudioSessionHandle {
    public func configure(_ configuration: SessionConfiguration) throws(SessionError) {
        try setCategory(configuration.category, mode: configuration.mode, options: configuration.options)
    }
}
