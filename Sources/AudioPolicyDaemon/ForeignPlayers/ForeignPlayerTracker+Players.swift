import DBus
import PolicyJournal
import RemoteControl
import SessionCore

/// One player's life: followed, read, given a session, changed, dropped.
extension ForeignPlayerTracker {
    /// The player's properties are read (`PlayerDirectoryEvent.read`): it gets its session, in
    /// the mode its rule or metadata says (`applyMode`) before it is activated. A player that
    /// failed to answer `GetAll` gets one too: its signals build the picture up.
    func attachSession(to name: String, token: UInt64, owner: String, read: MPRISPlayerProperties?) {
        let session: AudioSession
        do {
            session = try system.makeSession(SessionConfiguration(.playback))
        } catch {
            log("cannot make a session for \(name): \(error)")
            return
        }
        let events = session.onEvent { [weak self] event in
            self?.sessionEvent(event, of: name, token: token)
        }
        let number = sessions.nextNumber()
        // Entered before anything can ask who paused whom; taken out if the player went meanwhile.
        sessions.add(SessionDirectory.Entry(id: session.id, number: number, label: name,
                                            owner: owner, kind: .player(busName: name)))
        let outcome = modify(name, token) { tracked -> (ForeignPlayer, [ForeignPlayerAction]) in
            tracked.session = session
            tracked.number = number
            tracked.events = events
            let actions = tracked.player.load(read)
            return (tracked.player, actions)
        }
        guard let (player, actions) = outcome else {
            events.cancel()
            sessions.remove(session.id)
            return  // gone meanwhile; the session goes with this scope, outside the lock
        }
        log("tracking \(name) (\(player.owner)) as session \(number): \(player.statusText)")
        claimStreams(name, token: token)
        applyMode(name, token: token)
        perform(actions, for: name, token: token)
    }

    /// A `PropertiesChanged` of the player interface from the player's unique name. New
    /// metadata (a new track) may change whether it is spoken audio: its mode is set before the
    /// status change in the same signal is acted on, so a podcast that starts playing activates
    /// as spoken audio (and a mode change that had to wait is made now, `applyMode`).
    func propertiesChanged(_ change: MPRISPlayerProperties, of name: String, token: UInt64) {
        let actions = modify(name, token) { $0.player.update(change) } ?? []
        applyMode(name, token: token)
        perform(actions, for: name, token: token)
    }

    /// An event of the player's session.
    private func sessionEvent(_ event: SessionEvent, of name: String, token: UInt64) {
        var cause = (label: "the policy", pauseEntry: JournalEntry.Change?.none)
        if case .interruption(.began(let reason)) = event {
            cause = interrupter(of: name, token: token, reason: reason)
        }
        let streamsKnown = if case .ducking(.began) = event { playsStreams(name, token: token) } else { false }
        let actions = modify(name, token) { tracked in
            tracked.player.handle(event, cause: cause.label, pauseEntry: cause.pauseEntry, streamsKnown: streamsKnown)
        } ?? []
        perform(actions, for: name, token: token)
    }

    /// Who holds the player's session interrupted: the name for the log line, and what the
    /// journal keeps of the pause — nil when the pause is final (another player took over, the
    /// output went away), so that no replay ever resumes it.
    private func interrupter(of name: String, token: UInt64,
                             reason: InterruptionReason) -> (label: String, pauseEntry: JournalEntry.Change?) {
        guard let session = session(of: name, token: token),
              let cause = system.engine.session(session.id)?.interruptedBy else { return ("\(reason)", nil) }
        switch cause {
        case .session(let id):
            guard let cause = sessions.entry(id) else { return ("session \(id.rawValue)", nil) }
            switch cause.kind {
            // Another player took over: final, nothing resumes it.
            case .player: return (cause.label, nil)
            // A client's: journaled with its owner, whose going ends the pause.
            case .client: return (cause.label, cause.owner.map { .pause(cause: $0) })
            // An app's implicit session (issue 15), which no bus name owns: journaled with no
            // cause, so a next daemon resumes it unless it sees the call again.
            case .implicit: return (cause.label, .pause(cause: nil))
            }
        case .suspended: return ("the screen lock", .pause(cause: nil))
        case .builtInMicMuted: return ("the muted microphone", nil)
        case .routeDisconnected: return ("the lost route", nil)
        // Paused for good: the journal keeps nothing, so no replay ever resumes it.
        case .sleep: return ("the coming sleep", nil)
        }
    }



    /// Drops a player: its subscriptions end and its session is removed (here, outside the lock),
    /// which releases everything it held interrupted and every ducking it caused.
    /// What the journal holds about it is crossed out, unless the bus went away (`keepJournal`):
    /// then whoever replays the journal decides.
    func discard(_ tracked: Tracked, reason: String?, restoreVolume: Bool, keepJournal: Bool = false) {
        tracked.events?.cancel()
        if let session = tracked.session { sessions.remove(session.id) }
        var player = tracked.player
        if tracked.session != nil { state.withLock { $0.streams }?.release(tracked.number) }
        if restoreVolume { perform(player.undo(), for: player.busName, token: player.token, owner: player.owner) }
        if !keepJournal { journal?.forgetAll(player: player.busName, owner: player.owner) }
        if let reason, tracked.session != nil { log("stopped tracking \(player.busName): \(reason)") }
    }

    // MARK: State access

    /// Runs `change` on the tracked player if it is still the appearance `token`; nil otherwise.
    func modify<R>(_ name: String, _ token: UInt64, _ change: (inout Tracked) -> R) -> R? {
        state.withLock { state in
            guard var tracked = state.tracked[name], tracked.player.token == token else { return nil }
            let result = change(&tracked)
            state.tracked[name] = tracked
            return result
        }
    }

    /// Removes the tracked player if it is still the appearance `token`.
    func take(_ name: String, _ token: UInt64) -> Tracked? {
        state.withLock { state in
            guard let tracked = state.tracked[name], tracked.player.token == token else { return nil }
            return state.tracked.removeValue(forKey: name)
        }
    }

    func session(of name: String, token: UInt64) -> AudioSession? {
        state.withLock { state in
            guard let tracked = state.tracked[name], tracked.player.token == token else { return nil }
            return tracked.session
        }
    }
}
