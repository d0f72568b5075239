/// Deactivation and vanishing sessions (G-INT-NOTIFY, G-ACTIVATE-MINIMAL; the daemon's "when that
/// name vanishes its effects are undone at once").
extension PolicyEngine {
    /// Deactivates session `id`.
    ///
    /// With `notifyOthersOnDeactivation` the sessions it interrupted receive *ended* with
    /// `shouldResume`; without it they receive *ended* without (G-INT-NOTIFY) — unless something
    /// else still blocks them (an active session that would interrupt them, the lock, a muted mic,
    /// a lost route): then they stay interrupted, now held by that, and the next release decides.
    /// Its ducking ends at once. A queued delayed activation is cancelled. If its I/O was running
    /// the session is still deactivated and the decision fails with `isBusy`. Deactivating an
    /// interrupted session releases the sessions it holds; its own interruption stays open.
    ///
    /// Cost: O(active sessions + its victims); each victim receives an event, so this is the size
    /// of the answer.
    public mutating func deactivate(_ id: SessionID, options: ActivationOptions = []) -> PolicyDecision {
        guard let record = records[id] else { return PolicyDecision(.failed(.badParam(.unknownSession(id)))) }
        let activationOnly = options.intersection([.allowDelayedActivation, .alongsideOthers])
        if !activationOnly.isEmpty {
            return PolicyDecision(.failed(.badParam(.optionNotValidHere(activationOnly))))
        }
        if record.isPending {
            records[id]?.isPending = false
            pending.removeAll { $0 == id }
        }
        let wasBusy = record.isActive && record.isIORunning
        markInactive(id)
        grantPendingIfCallsEnded()
        releaseVictims(of: id, shouldResume: options.contains(.notifyOthersOnDeactivation))
        finish()
        return PolicyDecision(wasBusy ? .failed(.isBusy) : .done, effects: takeEffects())
    }

    /// Removes session `id` (its owner exited, crashed or closed it): everything it caused is
    /// undone at once — ducking ends, the sessions it interrupted receive *ended* without
    /// shouldResume (a vanished interrupter never notifies), its queued activation is dropped.
    /// The removed session itself receives nothing more. Unknown ids are ignored.
    public mutating func remove(_ id: SessionID) -> [PolicyEffect] {
        guard let record = records[id] else { return [] }
        if record.isPending { pending.removeAll { $0 == id } }
        leaveActive(id)
        detach(id)
        if record.isDucked { ducked.removeAll { $0 == id } }
        grantPendingIfCallsEnded()
        releaseVictims(of: id, shouldResume: false)
        records.remove(id)
        finish()
        return takeEffects()
    }

    /// Marks whether the session's I/O runs (a player started or stopped). Starting I/O needs an
    /// active session (`sessionNotActive`); deactivating while it runs fails with `isBusy`.
    public mutating func setIORunning(_ id: SessionID, _ running: Bool) throws(SessionError) {
        guard let record = records[id] else { throw .badParam(.unknownSession(id)) }
        if running && !record.isActive { throw .sessionNotActive }
        records[id]?.isIORunning = running
    }

    /// Records the user's answer about recording for session `id` (G-APP-MEDIA/VOIP/METER).
    public mutating func setRecordPermission(_ id: SessionID,
                                             _ permission: RecordPermission) throws(SessionError) {
        guard records[id] != nil else { throw .badParam(.unknownSession(id)) }
        records[id]?.recordPermission = permission
    }
}
