import SessionCore

extension ForeignPlayerTracker {
    /// The engine's id of the session standing for the player `busName`, if it is tracked and
    /// has one — for the arbiter to tell a pause by the policy from the user's (issue 16).
    public func sessionID(of busName: String) -> SessionID? {
        state.withLock { $0.tracked[busName]?.session?.id }
    }
}
