import DBus
import FoundationEssentials
import RemoteControl

/// Finding the players and following their `PlaybackStatus`.
extension PlayerArbiter {
    /// The players on the bus now (`PlayerNameListing`).
    func listPlayers(completion: @escaping @Sendable (Result<Void, DBusError>) -> Void) {
        PlayerNameListing.list(on: connection, timeout: Self.callTimeout,
                               found: { [weak self] name, owner in self?.ownerChanged(of: name, to: owner) },
                               completion: completion)
    }

    /// `NameOwnerChanged(s name, s old, s new)`.
    func nameOwnerChanged(_ signal: Message) {
        guard signal.body.count == 3, case .string(let name) = signal.body[0],
              case .string(let owner) = signal.body[2], MPRISNames.isPlayerName(name) else { return }
        ownerChanged(of: name, to: owner.isEmpty ? nil : owner)
    }

    /// `name` is owned by `owner` now (nil: nobody). The same owner twice changes nothing; an
    /// owner with `ForeignPlayerQuota.playersPerOwner` names followed already gets no more.
    private func ownerChanged(of name: String, to owner: String?) {
        let at = now()
        let (old, added) = state.withLock { state -> (Followed?, Followed?) in
            guard state.phase == .running else { return (nil, nil) }
            if let current = state.followed[name], current.owner == owner { return (nil, nil) }
            let old = state.followed.removeValue(forKey: name)
            guard let owner else {
                state.ranking.vanished(name)
                return (old, nil)
            }
            // The tracker's bound (`ForeignPlayerQuota`): one connection cannot make the arbiter
            // follow names without end; its further names are never ranked.
            if state.followed.values.lazy.filter({ $0.owner == owner }).count >= ForeignPlayerQuota.playersPerOwner {
                if old != nil { state.ranking.vanished(name) }
                return (old, nil)
            }
            state.nextToken += 1
            let added = Followed(owner: owner, token: state.nextToken)
            state.followed[name] = added
            state.ranking.appeared(name, owner: owner, status: nil, at: at)
            return (old, added)
        }
        old?.signals?.cancel()
        if old != nil, added == nil { log("player \(name) went away") }
        if let old { unpairStreams(of: name, owner: old.owner) }
        if let added {
            follow(name, added)
            pairStreams(of: name, added)
        }
        announce()
    }

    /// Subscribes to the player's `PropertiesChanged`, then reads its `PlaybackStatus`.
    private func follow(_ name: String, _ followed: Followed) {
        let token = followed.token
        let owner = followed.owner
        let rule = MatchRule(sender: owner, interface: StandardInterfaceName.properties,
                             member: "PropertiesChanged", path: MPRISNames.objectPath,
                             arguments: [0: MPRISNames.playerInterface])
        connection.subscribe(rule, { [weak self] signal in
            guard signal.body.count >= 2, case .dictionary(.string, .variant, let entries) = signal.body[1] else { return }
            for entry in entries {
                if case .string("PlaybackStatus") = entry.key, case .variant(.string(let status)) = entry.value {
                    self?.statusSaid(status, by: name, token: token)
                }
            }
        }, completion: { [weak self] result in
            guard case .success(let subscription) = result else {
                if case .failure(let error) = result { self?.log("cannot follow \(name): \(error)") }
                return
            }
            guard let self else { return subscription.cancel() }
            let kept = self.state.withLock { state -> Bool in
                guard state.followed[name]?.token == token else { return false }
                state.followed[name]?.signals = subscription
                return true
            }
            guard kept else { return subscription.cancel() }
            self.readStatus(of: name, owner: owner, token: token)
        })
    }

    private func readStatus(of name: String, owner: String, token: UInt64) {
        let request = Message.methodCall(destination: owner, path: MPRISNames.objectPath,
                                         interface: StandardInterfaceName.properties, member: "Get",
                                         body: [.string(MPRISNames.playerInterface), .string("PlaybackStatus")])
        connection.call(request, timeout: Self.callTimeout) { [weak self] result in
            // A player that does not answer stays Stopped until its signals say otherwise.
            guard case .success(let reply) = result, case .variant(.string(let status))? = reply.body.first else { return }
            self?.statusSaid(status, by: name, token: token)
        }
    }

    /// The player `name` (appearance `token`) said `status`.
    private func statusSaid(_ status: String, by name: String, token: UInt64) {
        let owner = state.withLock { state in state.followed[name].flatMap { $0.token == token ? $0.owner : nil } }
        guard let owner else { return }
        // Asked outside the lock, before the change is applied: the policy has already
        // interrupted the session when the player reports the Pause it asked for.
        let cause = status == "Paused" ? pauseCause(name, owner) : nil
        let at = now()
        state.withLock { state in
            guard state.followed[name]?.token == token else { return }
            state.ranking.statusChanged(name, status: status, pausedBy: cause, at: at)
        }
        announce()
    }
}
