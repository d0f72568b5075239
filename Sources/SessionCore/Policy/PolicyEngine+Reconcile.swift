/// Derived state recomputed after every decision, so it can never drift from the active set:
/// ducking (G-CAT-OPTIONS: ducking lasts exactly as long as the ducker is active) and the
/// secondary-audio hint (field notes). O(sessions that changed) for ducking unless the duckers
/// changed (then O(active)), O(active non-mixing sessions) for the hint.
extension PolicyEngine {
    /// Whether the active session `id` is ducked by some other active ducker.
    func shouldBeDucked(_ id: SessionID, traits: SessionTraits) -> Bool {
        for ducker in duckers where ducker != id {
            guard let duckerTraits = records[ducker]?.traits else { continue }
            if InterruptionRules.ducks(duckerTraits, traits) { return true }
        }
        return false
    }

    /// Emits *ducking began/ended* for every session whose ducked state changed. When the set of
    /// active duckers is unchanged only the sessions that entered or left the active set can have
    /// changed (O(those × duckers)); otherwise every active session is re-checked (O(active)).
    mutating func reconcileDucking() {
        defer {
            duckTouched.removeAll(keepingCapacity: true)
            duckersChanged = false
        }
        if duckersChanged {
            reconcileAllDucking()
            return
        }
        for id in duckTouched {
            guard let traits = records[id]?.traits, let isDucked = records[id]?.isDucked else { continue }
            let wanted = records[id]?.activeIndex != nil && shouldBeDucked(id, traits: traits)
            guard wanted != isDucked else { continue }
            records[id]?.isDucked = wanted
            emit(id, .ducking(wanted ? .began : .ended))
            if wanted {
                ducked.append(id)
            } else if let at = ducked.firstIndex(of: id) {
                ducked.remove(at: at)
            }
        }
    }

    /// Re-checks every ducked and every active session.
    mutating func reconcileAllDucking() {
        if duckers.isEmpty && ducked.isEmpty { return }
        for id in ducked {
            guard let record = records[id] else { continue }
            if !record.isActive || !shouldBeDucked(id, traits: record.traits) {
                records[id]?.isDucked = false
                emit(id, .ducking(.ended))
            }
        }
        var now: [SessionID] = []
        if !duckers.isEmpty {
            for id in activeOrder {
                guard let record = records[id], shouldBeDucked(id, traits: record.traits) else { continue }
                if !record.isDucked {
                    records[id]?.isDucked = true
                    emit(id, .ducking(.began))
                }
                now.append(id)
            }
        }
        ducked = now
    }

    /// Emits the secondary-audio hint when the primary (non-mixing output) session changes: one
    /// broadcast to every session but the primary, or point events when it passes from one to
    /// another.
    mutating func reconcileSecondaryAudioHint() {
        var primary: SessionID?
        for id in exclusives where records[id]?.traits.isPrimaryAudio == true {
            primary = id
            break
        }
        guard primary != hintPrimary else { return }
        switch (hintPrimary, primary) {
        case (nil, let new?):
            effects.append(PolicyEffect(.everySessionExcept(new), .secondaryAudioHint(.begin)))
        case (let old?, nil):
            effects.append(PolicyEffect(.everySessionExcept(old), .secondaryAudioHint(.end)))
        case (let old?, let new?):
            if records[old] != nil { emit(old, .secondaryAudioHint(.begin)) }
            emit(new, .secondaryAudioHint(.end))
        case (nil, nil):
            break
        }
        hintPrimary = primary
    }
}
