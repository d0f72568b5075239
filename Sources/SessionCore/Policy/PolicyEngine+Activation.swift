/// Activation (G-ACTIVATE-MINIMAL, G-CALLS, G-CAT-OPTIONS, G-SILENT lock rule, G-INT-MIC).
extension PolicyEngine {
    /// `setActive(true)` / `setActive(false)` in one call, as a daemon receives it.
    public mutating func setActive(_ id: SessionID, _ active: Bool,
                                   options: ActivationOptions = []) -> PolicyDecision {
        active ? activate(id, options: options) : deactivate(id, options: options)
    }

    /// Activates session `id`.
    ///
    /// - A call interrupts every active session (G-CALLS); while a call is active any other
    ///   non-mixing activation fails with `insufficientPriority`, or with `allowDelayedActivation`
    ///   is queued (`.delayed`) and granted when the last call ends. One activation is queued at a
    ///   time: a newer delayed request supersedes the queued one, which receives
    ///   `.delayedActivation(.refused(.insufficientPriority))`.
    /// - A non-mixing activation interrupts the active non-mixing sessions; mixing sessions keep
    ///   playing; duckOthers ducks the others while this session is active; interruptSpokenAudio…
    ///   interrupts spokenAudio sessions (see `InterruptionRules`).
    /// - ambient/soloAmbient cannot start while locked or in background (`cannotStartPlaying`,
    ///   G-SILENT); input
    ///   categories need record permission, an input port and an unmuted mic
    ///   (`cannotStartRecording`, G-INT-MIC).
    /// - A session that activates while interrupted ends its own interruption first (it receives
    ///   *ended* without shouldResume), so *began*/*ended* stay paired.
    /// - `alongsideOthers` interrupts nobody (an adopted session; call priority still applies).
    ///
    /// Activating an active session does nothing. Cost: O(active sessions).
    public mutating func activate(_ id: SessionID, options: ActivationOptions = []) -> PolicyDecision {
        guard let record = records[id] else { return PolicyDecision(.failed(.badParam(.unknownSession(id)))) }
        if options.contains(.notifyOthersOnDeactivation) {
            return PolicyDecision(.failed(.badParam(.optionNotValidHere(.notifyOthersOnDeactivation))))
        }
        if record.isActive { return PolicyDecision(.done) }
        if let error = activationError(record) { return PolicyDecision(.failed(error)) }
        if activeCallCount > 0 && InterruptionRules.isRefusedDuringCall(record.traits) {
            guard options.contains(.allowDelayedActivation) else {
                return PolicyDecision(.failed(.insufficientPriority))
            }
            if !record.isPending {
                // One queued activation at a time: the latest request wins (audio-focus model;
                // only one non-mixing session could win anyway), so a grant stays O(active).
                for superseded in pending {
                    records[superseded]?.isPending = false
                    emit(superseded, .delayedActivation(.refused(.insufficientPriority)))
                }
                records[id]?.isPending = true
                pending = [id]
            }
            return PolicyDecision(.delayed, effects: takeEffects())
        }
        grant(id, interruptingOthers: !options.contains(.alongsideOthers))
        finish()
        return PolicyDecision(.done, effects: takeEffects())
    }

    /// Why `record` may not start now, apart from call priority.
    func activationError(_ record: SessionRecord) -> SessionError? {
        if !conditions.mediaServicesAvailable { return .mediaServicesFailed }
        let traits = record.traits
        if traits.isSilencedBySilentModeAndLock && isSuspended(record) { return .cannotStartPlaying }
        if traits.hasInput {
            if record.recordPermission != .granted || record.route.inputs.isEmpty
                || isBlockedByMutedMic(record) {
                return .cannotStartRecording
            }
        }
        if traits.hasOutput && record.route.outputs.isEmpty { return .cannotStartPlaying }
        return nil
    }

    /// Makes `id` active and applies the pairwise rules to every active session (unless it joins
    /// them as it finds them: `interruptingOthers` false). O(active).
    mutating func grant(_ id: SessionID, interruptingOthers: Bool = true) {
        guard let traits = records[id]?.traits else { return }
        if records[id]?.heldBy != nil {
            detach(id)
            emit(id, .interruption(.ended(options: [])))
        }
        if records[id]?.isPending == true {
            records[id]?.isPending = false
            pending.removeAll { $0 == id }
        }
        if interruptingOthers { applyRules(of: id, traits: traits) }
        enterActive(id)
    }

    /// Interrupts every active session that `traits` interrupts, on behalf of `id`. Only a call
    /// looks at every active session; a non-mixing session can only interrupt the active non-mixing
    /// ones, a spoken-audio interrupter the active spokenAudio ones, a plain mixing one none
    /// (`InterruptionRules`).
    mutating func applyRules(of id: SessionID, traits: SessionTraits) {
        let candidates: [SessionID]
        if traits.isCall {
            candidates = activeOrder
        } else if !traits.isMixable {
            candidates = exclusives
        } else if traits.interruptsSpokenAudio {
            candidates = activeSpoken
        } else {
            return
        }
        for other in candidates.reversed() where other != id {
            guard let otherTraits = records[other]?.traits else { continue }
            if InterruptionRules.outcome(ofActivating: traits, on: otherTraits) == .interrupted {
                interrupt(other, by: .session(id), reason: .default)
            }
        }
    }

    /// Grants the queued activation once no call is active (G-CALLS, delayed activation).
    mutating func grantPendingIfCallsEnded() {
        guard activeCallCount == 0, !pending.isEmpty else { return }
        let queue = pending
        pending = []
        for id in queue {
            guard let record = records[id] else { continue }
            records[id]?.isPending = false
            if let error = activationError(record) {
                emit(id, .delayedActivation(.refused(error)))
            } else if !record.isActive {
                grant(id)
                emit(id, .delayedActivation(.granted))
            }
        }
    }

    /// Common tail of every decision: queued grants, ducking and the secondary-audio hint.
    mutating func finish() {
        grantPendingIfCallsEnded()
        reconcileDucking()
        reconcileSecondaryAudioHint()
    }
}
