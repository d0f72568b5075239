import SessionCore

extension StreamPolicy {
    /// The engine's ids of the implicit sessions there are now (any thread): the sessions of apps
    /// without our API or MPRIS, which the coming sleep spares. Their interruption would only mute
    /// the app's streams, and nothing would resume the app after the wake-up, so the mute would
    /// outlive its reason; the sleep itself silences them.
    public func implicitSessionIDs() -> Set<SessionID> {
        state.withLock { state in
            Set(state.implicit.sessions.values.map(\.session.id))
        }
    }
}
