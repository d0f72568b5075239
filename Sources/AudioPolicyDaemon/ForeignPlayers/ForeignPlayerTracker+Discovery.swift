import DBus
import RemoteControl

/// Finding players: who owns which `org.mpris.MediaPlayer2.*` name, now and from now on.
extension ForeignPlayerTracker {
    /// `ListNames`, then the owner of each player name (the subscription to `NameOwnerChanged` is
    /// already in place, so a player that appears meanwhile is not missed).
    func listPlayers(completion: @escaping @Sendable (Result<Void, DBusError>) -> Void) {
        let request = Message.methodCall(destination: BusDaemon.name, path: BusDaemon.path,
                                         interface: BusDaemon.interface, member: "ListNames")
        connection.call(request, timeout: Self.callTimeout) { [weak self] result in
            guard let self else { return completion(.failure(Self.stoppedError)) }
            switch result {
            case .success(let reply):
                for name in Self.strings(reply.body.first) where MPRISNames.isPlayerName(name) && !PlayerIgnoreList.isProxy(name) {
                    self.lookUpOwner(of: name)
                }
                completion(.success(()))
            case .failure(let error):
                completion(.failure(error))
            }
        }
    }

    private func lookUpOwner(of name: String) {
        let request = Message.methodCall(destination: BusDaemon.name, path: BusDaemon.path,
                                         interface: BusDaemon.interface, member: "GetNameOwner",
                                         body: [.string(name)])
        connection.call(request, timeout: Self.callTimeout) { [weak self] result in
            // Gone again already: its NameOwnerChanged said so (or will).
            guard case .success(let reply) = result, case .string(let owner)? = reply.body.first,
                  !owner.isEmpty else { return }
            self?.ownerChanged(of: name, to: owner, foundAtStart: true)
        }
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

    /// The strings of an `as` (ListNames' answer); anything else gives none.
    static func strings(_ value: DBusValue?) -> [String] {
        guard case .array(.string, let elements)? = value else { return [] }
        return elements.compactMap { if case .string(let text) = $0 { text } else { nil } }
    }
}
