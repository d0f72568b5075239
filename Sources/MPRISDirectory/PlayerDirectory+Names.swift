import DBus
import RemoteControl

/// Finding players: who owns which `org.mpris.MediaPlayer2.*` name, now and from now on.
extension PlayerDirectory {
    /// The players on the bus now (`PlayerNameListing`).
    func listPlayers() {
        PlayerNameListing.list(on: connection, timeout: Self.callTimeout,
                               found: { [weak self] name, owner in self?.ownerChanged(of: name, to: owner, foundAtStart: true) },
                               completion: { [weak self] result in self?.listingEnded(result) })
    }

    /// `NameOwnerChanged(s name, s old, s new)` from the bus.
    func nameOwnerChanged(_ signal: Message) {
        guard signal.body.count == 3, case .string(let name) = signal.body[0],
              case .string(let owner) = signal.body[2] else { return }
        if name.hasPrefix(":"), owner.isEmpty {
            state.withLock { $0.quota.ownerLeft(name) }
            owners.forget(name)
            return
        }
        guard MPRISNames.isPlayerName(name) else { return }
        ownerChanged(of: name, to: owner.isEmpty ? nil : owner)
    }

    /// `name` is owned by `owner` now (nil: nobody). Idempotent: the same owner twice changes
    /// nothing. A new owner is a new appearance (the old one vanishes first) — unless that owner
    /// has `PlayerOwnerQuota.playersPerOwner` names listed already: then the name is left alone
    /// (no match rule, no call), with one log line per connection.
    func ownerChanged(of name: String, to owner: String?, foundAtStart: Bool = false) {
        var firstRefusal = false
        var removed: Listed?
        var added: DirectoryPlayer?
        tell {
            state.withLock { state in
                guard state.phase == .listing || state.phase == .listed else { return }
                if let current = state.players[name], current.player.owner == owner { return }
                removed = state.players.removeValue(forKey: name)
                guard let owner else { return }
                let gone = state.quota.names(of: owner).filter { state.players[$0]?.player.owner != owner }
                if case .refused(let first) = state.quota.admit(name, of: owner, gone: gone) {
                    firstRefusal = first
                    return
                }
                state.appearances &+= 1
                let player = DirectoryPlayer(busName: name, owner: owner, appearance: state.appearances,
                                             foundAtStart: foundAtStart)
                state.players[name] = Listed(player: player)
                added = player
            }
            let vanished = removed.map { PlayerDirectoryEvent.vanished($0.player, reason: owner == nil ? .nameReleased : .ownerChanged) }
            return [vanished, added.map { .appeared($0) }].compactMap { $0 }
        }
        removed?.signals?.cancel()
        if firstRefusal, let owner {
            log("\(owner) owns more than \(PlayerOwnerQuota.playersPerOwner) MPRIS names: its further names are not followed")
        }
        if let added { follow(added) }
    }
}
