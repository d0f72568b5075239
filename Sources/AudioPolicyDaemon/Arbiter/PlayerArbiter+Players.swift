import DBus
import FoundationEssentials
import MPRISDirectory
import RemoteControl

/// The players as the directory tells them: ranked from their appearance, re-ranked on every
/// `PlaybackStatus` they say, paired with their streams once their process is known, gone with
/// their name.
extension PlayerArbiter {
    /// One event of the directory (in order, on the bus's I/O thread).
    func directoryEvent(_ event: PlayerDirectoryEvent) {
        switch event {
        case .appeared(let player):
            appeared(player)
        case .read(let player):
            // A player that does not answer stays Stopped until its signals say otherwise.
            if let status = player.properties.playbackStatus { statusSaid(status, by: player) }
        case .changed(let player, let changes):
            if let status = Self.playbackStatus(in: changes) { statusSaid(status, by: player) }
        case .located(let player):
            located(player)
        case .vanished(let player, let reason):
            vanished(player, reason)
        case .seeked, .identified:
            return
        }
    }

    /// `PlaybackStatus` in a `PropertiesChanged`'s `a{sv}`, when it is there as a string.
    static func playbackStatus(in changes: DBusValue) -> String? {
        guard case .dictionary(.string, .variant, let entries) = changes else { return nil }
        for entry in entries {
            if case .string("PlaybackStatus") = entry.key, case .variant(.string(let status)) = entry.value { return status }
        }
        return nil
    }

    private func appeared(_ player: DirectoryPlayer) {
        let at = now()
        let kept = state.withLock { state -> Bool in
            guard state.phase == .running else { return false }
            state.followed[player.busName] = Followed(owner: player.owner, token: player.appearance)
            state.ranking.appeared(player.busName, owner: player.owner, status: nil, at: at)
            if let pid = player.processID { state.streams.pids[player.busName] = pid }
            return true
        }
        if kept { announce() }
    }

    private func vanished(_ player: DirectoryPlayer, _ reason: PlayerDirectoryVanishing) {
        let removed = state.withLock { state -> Bool in
            guard state.followed[player.busName]?.token == player.appearance else { return false }
            state.followed[player.busName] = nil
            state.streams.pids[player.busName] = nil
            state.ranking.vanished(player.busName)
            return true
        }
        guard removed else { return }
        if reason != .ownerChanged { log("player \(player.busName) went away") }
        announce()
    }

    /// The player's owner process is known: its streams can be paired (PlayerArbiter+Streams.swift).
    private func located(_ player: DirectoryPlayer) {
        guard let pid = player.processID else { return }
        let kept = state.withLock { state -> Bool in
            guard state.followed[player.busName]?.token == player.appearance else { return false }
            state.streams.pids[player.busName] = pid
            return true
        }
        if kept { updatePresence() }
    }

    /// The player said `status`.
    private func statusSaid(_ status: String, by player: DirectoryPlayer) {
        let name = player.busName
        let token = player.appearance
        guard state.withLock({ $0.followed[name]?.token == token }) else { return }
        // Asked outside the lock, before the change is applied: the policy has already
        // interrupted the session when the player reports the Pause it asked for.
        let cause = status == "Paused" ? pauseCause(name, player.owner) : nil
        let at = now()
        state.withLock { state in
            guard state.followed[name]?.token == token else { return }
            state.ranking.statusChanged(name, status: status, pausedBy: cause, at: at)
        }
        announce()
    }
}
