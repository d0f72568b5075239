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

    /// Reads the player's `Identity` (which a rule may name) and decides its mode again once it
    /// is known. Asked beside `GetAll`, not before it: no player waits for it to get its session.
    /// A player without one (or that does not answer) is matched by its bus name only.
    func readIdentity(of player: ForeignPlayer) {
        let name = player.busName
        let token = player.token
        connection.call(ForeignPlayerQuery.identity(of: player.owner), timeout: Self.callTimeout) { [weak self] result in
            guard let self, case .success(let reply) = result,
                  case .variant(.string(let identity))? = reply.body.first else { return }
            let known = self.modify(name, token) { $0.player.identity = identity } != nil
            if known { self.applyMode(name, token: token) }
        }
    }

    /// Decides the player's mode from its rule and metadata and puts its session in it if that
    /// changed: `setCategory(.playback, mode: .spokenAudio)` or back to `.default`.
    ///
    /// On a playing player the engine re-arbitrates the session as if it activated now (it
    /// interrupts no other player that its activation had not already). A prompt that is already
    /// speaking keeps ducking it: a player that becomes spoken audio mid-prompt is paused by the
    /// next prompt. A change the engine refuses (a call owns audio) is logged and tried again at
    /// the next track.
    func applyMode(_ name: String, token: UInt64) {
        applyingMode.withLock { _ in
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
                do {
                    try session.setCategory(.playback, mode: wanted.sessionMode)
                } catch {
                    return log("\(name) stays in mode \(session.mode): cannot set mode \(wanted.sessionMode): \(error)")
                }
            }
            let kept = modify(name, token) { $0.mode = wanted } != nil
            guard kept, wanted.spokenAudio != current.spokenAudio else { return }
            if wanted.spokenAudio {
                log("\(name) is spoken audio (\(wanted.reason ?? "")): a prompt pauses it")
            } else {
                log("\(name) is not spoken audio" + (wanted.reason.map { " (\($0))" } ?? "") + ": a prompt ducks it")
            }
        }
    }
}
