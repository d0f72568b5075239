/// Interruption bookkeeping: every *began* has exactly one cause, and is paired with exactly one
/// *ended* when the last thing that blocks the session goes away (G-INT-KINDS, G-INT-NOTIFY,
/// field notes: "a good implementation always pairs them").
extension PolicyEngine {
    /// Interrupts the active session `victim`: it becomes inactive, is held by `cause` and
    /// receives *began* with `reason`.
    mutating func interrupt(_ victim: SessionID, by cause: InterruptionCause, reason: InterruptionReason) {
        markInactive(victim)
        hold(victim, by: cause)
        emit(victim, .interruption(.began(reason: reason)))
    }

    /// Records that `cause` holds `victim` (no event).
    mutating func hold(_ victim: SessionID, by cause: InterruptionCause) {
        records[victim]?.heldBy = cause
        switch cause {
        case .session(let holder): records[holder]?.victims.append(victim)
        case .suspended: suspendedVictims.append(victim)
        case .builtInMicMuted: micVictims.append(victim)
        case .routeDisconnected: routeVictims.append(victim)
        case .sleep: sleepVictims.append(victim)
        }
    }

    /// Removes `victim` from its cause's list without any event.
    mutating func detach(_ victim: SessionID) {
        guard let cause = records[victim]?.heldBy else { return }
        records[victim]?.heldBy = nil
        switch cause {
        case .session(let holder):
            if let at = records[holder]?.victims.firstIndex(of: victim) {
                records[holder]?.victims.remove(at: at)
            }
        case .suspended: suspendedVictims.removeAll { $0 == victim }
        case .builtInMicMuted: micVictims.removeAll { $0 == victim }
        case .routeDisconnected: routeVictims.removeAll { $0 == victim }
        case .sleep: sleepVictims.removeAll { $0 == victim }
        }
    }

    /// `victim` lost its cause: it moves to whatever still blocks it, or receives *ended*, with
    /// `shouldResume` only if the releasing cause said so (G-INT-NOTIFY).
    ///
    /// Interruptions stack (a call on hold keeps the music it interrupted): a victim that ends
    /// *with* shouldResume is expected to resume and keeps what it held. One that ends *without*
    /// is not coming back by itself, so what it held is released too, also without shouldResume —
    /// no interruption can stay open behind a session that will not return.
    mutating func settle(_ victim: SessionID, shouldResume: Bool) {
        guard let record = records[victim] else { return }
        if let cause = blocker(of: record, id: victim) {
            hold(victim, by: cause)
        } else {
            emit(victim, .interruption(.ended(options: shouldResume ? .shouldResume : [])))
            if !shouldResume { releaseVictims(of: victim, shouldResume: false) }
        }
    }

    /// Releases everything `holder` holds interrupted.
    mutating func releaseVictims(of holder: SessionID, shouldResume: Bool) {
        guard let victims = records[holder]?.victims, !victims.isEmpty else { return }
        records[holder]?.victims = []
        for victim in victims {
            records[victim]?.heldBy = nil
            settle(victim, shouldResume: shouldResume)
        }
    }

    /// What would keep the (inactive) session from playing now: an active session that would
    /// interrupt it, else a system condition. Only non-mixing sessions and, for a spokenAudio
    /// session, spoken-audio interrupters can interrupt anything (`InterruptionRules`), so this
    /// looks at those few lists, not at every active session.
    func blocker(of record: SessionRecord, id: SessionID) -> InterruptionCause? {
        for other in exclusives where other != id && interrupts(other, record.traits) { return .session(other) }
        if record.traits.isSpokenAudio {
            for other in spokenInterrupters where other != id && interrupts(other, record.traits) {
                return .session(other)
            }
        }
        return systemBlock(of: record)?.cause
    }

    /// Whether the active session `other` would interrupt a session with `traits`.
    func interrupts(_ other: SessionID, _ traits: SessionTraits) -> Bool {
        guard let otherTraits = records[other]?.traits else { return false }
        return InterruptionRules.outcome(ofActivating: otherTraits, on: traits) == .interrupted
    }

    /// The system condition that forbids the session to play, if any (G-SILENT lock rule,
    /// G-INT-MIC, lost route).
    func systemBlock(of record: SessionRecord) -> (cause: InterruptionCause, reason: InterruptionReason)? {
        if isSuspended(record) && record.traits.isSilencedBySilentModeAndLock {
            return (.suspended, .appWasSuspended)
        }
        if isBlockedByMutedMic(record) { return (.builtInMicMuted, .builtInMicMuted) }
        if !record.isRouteUsable { return (.routeDisconnected, .routeDisconnected) }
        return nil
    }

    /// The screen is locked or the session's app is in background (guidelines §6: background).
    func isSuspended(_ record: SessionRecord) -> Bool {
        conditions.isLocked || record.isInBackground
    }

    /// The session records through the built-in mic while it is muted, without the override
    /// (G-INT-MIC).
    func isBlockedByMutedMic(_ record: SessionRecord) -> Bool {
        conditions.isBuiltInMicMuted && record.traits.hasInput && !record.traits.overridesMutedMicrophone
            && record.route.inputs.contains { $0.type == .builtInMic }
    }

    /// After a change of system state or of a configuration: interrupts the active sessions a
    /// system condition now forbids, and settles the system-held sessions whose condition is gone
    /// (unlock ends with shouldResume; mic unmute and route return without — G-INT-MIC).
    mutating func enforceSystemBlocks() {
        for id in activeOrder.reversed() {
            guard let record = records[id], let block = systemBlock(of: record) else { continue }
            interrupt(id, by: block.cause, reason: block.reason)
        }
        for cause in [InterruptionCause.suspended, .builtInMicMuted, .routeDisconnected] {
            let held: [SessionID]
            switch cause {
            case .suspended: held = suspendedVictims
            case .builtInMicMuted: held = micVictims
            default: held = routeVictims
            }
            var released: [SessionID] = []
            for id in held {
                guard let record = records[id] else { continue }
                if systemBlock(of: record)?.cause != cause { released.append(id) }
            }
            for id in released {
                detach(id)
                settle(id, shouldResume: cause == .suspended)
            }
        }
    }
}
