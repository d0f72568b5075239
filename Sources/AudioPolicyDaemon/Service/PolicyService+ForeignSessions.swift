import SessionCore

/// What the foreign player tracker asks of the service, so that the daemon has one numbering of
/// sessions and knows who caused what.
extension PolicyService {
    /// A number for a foreign player's session, from the same sequence as served sessions (one
    /// numbering in the log, in `mprisd status` and in its JSON).
    public func numberForeignSession() -> UInt64 {
        state.withLock { state in
            state.lastNumber += 1
            return state.lastNumber
        }
    }

    /// The unique name that owns the served session the engine knows as `id`; nil when it is not
    /// one the daemon serves.
    public func owner(of id: SessionID) -> String? {
        served(engineID: id)?.owner
    }
}
