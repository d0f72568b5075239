import DBus
import MPRISDirectory
import RemoteControl

/// The players as the daemon's `PlayerDirectory` tells them: each appearance of a player that is
/// not one of our own sessions and not a proxy becomes a `ForeignPlayer`, gets its session when
/// its properties are read, and is dropped with its session when it vanishes.
extension ForeignPlayerTracker {
    /// One event of the directory (in order, on the bus's I/O thread).
    func directoryEvent(_ event: PlayerDirectoryEvent) {
        switch event {
        case .appeared(let player):
            appeared(player)
        case .read(let player):
            if let identity = player.identity { _ = modify(player.busName, player.appearance) { $0.player.identity = identity } }
            attachSession(to: player.busName, token: player.appearance, owner: player.owner,
                          read: MPRISPlayerProperties(dictionary: player.properties.dictionary))
        case .changed(let player, let changes):
            propertiesChanged(MPRISPlayerProperties(dictionary: changes), of: player.busName, token: player.appearance)
        case .identified(let player):
            guard let identity = player.identity else { return }
            let known = modify(player.busName, player.appearance) { $0.player.identity = identity } != nil
            if known { applyMode(player.busName, token: player.appearance) }
        case .vanished(let player, let reason):
            vanished(player, reason)
        case .seeked, .located:
            return
        }
    }

    /// A new appearance. A proxy (playerctld) mirrors another player's status: followed as a
    /// player, its mirrored "Playing" would interrupt the very player it mirrors (issue 16).
    /// Names whose owner `isOwnSession` (our own `mprisd play`, which has a session of its own)
    /// are left alone.
    private func appeared(_ appearance: DirectoryPlayer) {
        guard !appearance.isProxy else { return }
        let name = appearance.busName
        // Asked outside the lock: the check belongs to the caller and may take locks of its own.
        let isOwn = isOwnSession(appearance.owner)
        let (removed, newlyIgnored) = state.withLock { state -> (Tracked?, Bool) in
            guard state.phase == .running else { return (nil, false) }
            let removed = state.tracked.removeValue(forKey: name)
            let wasIgnored = state.ignored.removeValue(forKey: name)
            if isOwn {
                state.ignored[name] = appearance.owner
                return (removed, wasIgnored != appearance.owner)
            }
            state.tracked[name] = Tracked(player: ForeignPlayer(busName: name, owner: appearance.owner,
                                                                token: appearance.appearance,
                                                                foundAtStart: appearance.foundAtStart))
            return (removed, false)
        }
        if let removed { discard(removed, reason: "its name changed owner", restoreVolume: false) }
        if newlyIgnored { log("left \(name) alone: \(appearance.owner) is one of our own sessions") }
    }

    /// The appearance is gone: its session goes, which undoes what it caused to others. When the
    /// bus went away the journal keeps what was done to it (whoever replays it decides); when the
    /// directory stops, volumes are set back, as `stop` does.
    private func vanished(_ appearance: DirectoryPlayer, _ reason: PlayerDirectoryVanishing) {
        let name = appearance.busName
        let removed = state.withLock { state -> Tracked? in
            if state.ignored[name] == appearance.owner { state.ignored[name] = nil }
            guard let tracked = state.tracked[name], tracked.player.token == appearance.appearance else { return nil }
            return state.tracked.removeValue(forKey: name)
        }
        guard let removed else { return }
        switch reason {
        case .nameReleased: discard(removed, reason: "its name went away", restoreVolume: false)
        case .ownerChanged: discard(removed, reason: "its name changed owner", restoreVolume: false)
        case .busLost: discard(removed, reason: "the bus connection was lost", restoreVolume: false, keepJournal: true)
        case .stopped: discard(removed, reason: nil, restoreVolume: true)
        }
    }
}
