import AppClassification
import DBus
import SessionCore

/// Spoken audio: a player marked so (a `player` rule, or its track's genre) has its session in
/// mode `spokenAudio`, so that a prompt — `interruptSpokenAudioAndMixWithOthers` — interrupts
/// it, which pauses it, and its end with notify-others plays it again; a plain player is only
/// ducked (G-SCN-NAV, G-APP-NAV, G-INT-RESUME). The decision is `PlayerMode`'s.
extension ForeignPlayerTracker {
    /// Takes the user's rules (`AppRules.load()`); only their `player` rules matter here. Every
    /// tracked player's mode is decided again at once; players found later are decided as they
    /// come. Callable from any thread, before or after `start`.
    public func setRules(_ rules: AppRules) {
        let tracked = state.withLock { state in
            state.rules = rules
            return state.tracked.values.map { ($0.player.busName, $0.player.token) }
        }
        for (name, token) in tracked { applyMode(name, token: token) }
    }

    /// Decides the player's mode from its rule and metadata and puts its session in it if that
    /// changed: `setCategory(.playback, mode: .spokenAudio)` or back to `.default`.
    ///
    /// The engine re-arbitrates an active session whose configuration changes as if it activated
    /// now, which would interrupt — pause — another player playing beside it (both adopted when
    /// the daemon started): a change while another non-mixing session is active waits until the
    /// player next starts playing (every signal asks again, before its status is acted on). A
    /// prompt that is already speaking keeps ducking a player that becomes spoken audio under it:
    /// the next prompt pauses it. A change the engine refuses (a call owns audio) is logged and
    /// tried again at the next signal.
    func applyMode(_ name: String, token: UInt64) {
        applyingMode.withLock { _ in setMode(name, token: token) }
    }

    /// `applyMode`'s work, under `applyingMode`.
    private func setMode(_ name: String, token: UInt64) {
        let found = state.withLock { state -> (AudioSession, PlayerMode, PlayerMode)? in
            guard let tracked = state.tracked[name], tracked.player.token == token,
                  let session = tracked.session else { return nil }
            let player = tracked.player
            let wanted = PlayerMode.decide(busName: name, identity: player.identity,
                                           properties: player.properties, rules: state.rules)
            return (session, tracked.mode, wanted)
        }
        guard let (session, current, wanted) = found, wanted != current else { return }
        if wanted.sessionMode != session.mode {
            if session.isActive, playsBesideAnother(session.id) {
                let first = modify(name, token) { tracked -> Bool in
                    defer { tracked.deferredMode = wanted }
                    return tracked.deferredMode != wanted
                } ?? false
                if first {
                    log("\(name) \(wanted.spokenAudio ? "becomes spoken audio" : "stops being spoken audio") when it next starts"
                        + " playing: it plays beside another player, which a change now would pause")
                }
                return
            }
            do {
                try session.setCategory(.playback, mode: wanted.sessionMode)
            } catch {
                return log("\(name) stays in mode \(session.mode): cannot set mode \(wanted.sessionMode): \(error)")
            }
        }
        let kept = modify(name, token) { (tracked: inout Tracked) -> Void in
            tracked.mode = wanted
            tracked.deferredMode = nil
        } != nil
        guard kept, wanted.spokenAudio != current.spokenAudio else { return }
        if wanted.spokenAudio {
            log("\(name) is spoken audio (\(wanted.reason ?? "")): a prompt pauses it")
        } else {
            log("\(name) is not spoken audio" + (wanted.reason.map { " (\($0))" } ?? "") + ": a prompt ducks it")
        }
    }

    /// Whether another non-mixing session is active beside `id` (players adopted side by side).
    private func playsBesideAnother(_ id: SessionID) -> Bool {
        let engine = system.engine
        return engine.activeSessions.contains { other in
            other != id && engine.session(other).map { !SessionTraits($0.configuration).isMixable } ?? false
        }
    }
}
