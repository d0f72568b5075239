import DBus
import RemoteControl

/// Finding players: who owns which `org.mpris.MediaPlayer2.*` name, now and from now on.
extension ForeignPlayerTracker {
    /// The players on the bus now (`PlayerNameListing`), proxies left out.
    func listPlayers(completion: @escaping @Sendable (Result<Void, DBusError>) -> Void) {
        PlayerNameListing.list(on: connection, timeout: Self.callTimeout, include: { !PlayerIgnoreList.isProxy($0) },
                               found: { [weak self] name, owner in self?.ownerChanged(of: name, to: owner, foundAtStart: true) },
                               completion: { [weak self] result in completion(self == nil ? .failure(Self.stoppedError) : result) })
    }

    /// `NameOwnerChanged(s name, s old, s new)` from the bus.
    func nameOwnerChanged(_ signal: Message) {
        guard signal.body.count == 3, case .string(let name) = signal.body[0],
              case .string(let owner) = signal.body[2] else { return }
        if name.hasPrefix(":"), owner.isEmpty {
            state.withLock { $0.quota.ownerLeft(name) }
            return
        }
        // A proxy (playerctld) mirrors another player's status: followed as a player, its
        // mirrored "Playing" would interrupt the very player it mirrors (issue 16).
        guard MPRISNames.isPlayerName(name), !PlayerIgnoreList.isProxy(name) else { return }
        ownerChanged(of: name, to: owner.isEmpty ? nil : owner)
    }

    /// `name` is owned by `owner` now (nil: nobody). Idempotent: the same owner twice changes
    /// nothing. A new owner is a new player (the old one's session goes) — unless that owner
    /// already has `ForeignPlayerQuota.playersPerOwner` players followed: then the name is left
    /// alone (no match rule, no `GetAll`), with one log line per connection. `foundAtStart`: the
    /// answer to the first look at the bus.
    func ownerChanged(of name: String, to owner: String?, foundAtStart: Bool = false) {
        // Asked outside the lock: the check belongs to the caller and may take locks of its own.
        let isOwn = owner.map(isOwnSession) ?? false
        var firstRefusal = false
        let (removed, added, newlyIgnored) = state.withLock { state -> (Tracked?, ForeignPlayer?, Bool) in
            guard state.phase == .running else { return (nil, nil, false) }
            if let current = state.tracked[name], current.player.owner == owner { return (nil, nil, false) }
            let removed = state.tracked.removeValue(forKey: name)
            let wasIgnored = state.ignored.removeValue(forKey: name)
            guard let owner else { return (removed, nil, false) }
            if isOwn {
                state.ignored[name] = owner
                return (removed, nil, wasIgnored != owner)
            }
            let gone = state.quota.names(of: owner).filter { state.tracked[$0]?.player.owner != owner }
            let admission = state.quota.admit(name, of: owner, gone: gone)
            if case .refused(let first) = admission {
                firstRefusal = first
                return (removed, nil, false)
            }
            state.nextToken &+= 1
            let player = ForeignPlayer(busName: name, owner: owner, token: state.nextToken, foundAtStart: foundAtStart)
            state.tracked[name] = Tracked(player: player)
            return (removed, player, false)
        }
        if let removed {
            discard(removed, reason: owner == nil ? "its name went away" : "its name changed owner", restoreVolume: false)
        }
        if newlyIgnored, let owner { log("left \(name) alone: \(owner) is one of our own sessions") }
        if firstRefusal, let owner {
            log("\(owner) owns more than \(ForeignPlayerQuota.playersPerOwner) MPRIS names: its further names are not followed")
        }
        if let added { follow(added) }
    }
}
