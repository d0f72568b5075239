import DBus
import RemoteControl

/// Reading one player: its signals, its properties, its identity, its process.
extension PlayerDirectory {
    /// Subscribes to every signal of the player's unique name on its object, then reads it.
    func follow(_ player: DirectoryPlayer) {
        let rule = MatchRule(sender: player.owner, path: MPRISNames.objectPath)
        connection.subscribe(rule, { [weak self] in self?.signal($0, from: player) }, completion: { [weak self] result in
            guard let self else {
                if case .success(let subscription) = result { subscription.cancel() }
                return
            }
            switch result {
            case .success(let subscription):
                let kept = self.update(player) { $0.signals = subscription } != nil
                guard kept else { return subscription.cancel() }
                self.readProperties(of: player)
                self.readIdentity(of: player)
                self.locate(player)
            case .failure(let error):
                // Listed without its signals it would never be current: it is not listed at all.
                self.log("cannot follow \(player.busName): \(error)")
                self.tell {
                    let removed = self.state.withLock { state -> Listed? in
                        guard let listed = state.players[player.busName], listed.player.isSame(as: player) else { return nil }
                        return state.players.removeValue(forKey: player.busName)
                    }
                    return removed.map { [.vanished($0.player, reason: .nameReleased)] } ?? []
                }
            }
        })
    }

    /// `GetAll`; an answer that fails (the player exports its object late, it hangs) still
    /// makes it read, with what its signals said meanwhile.
    private func readProperties(of player: DirectoryPlayer) {
        connection.call(ForeignPlayerQuery.getAll(of: player.owner), timeout: Self.callTimeout) { [weak self] result in
            guard let self else { return }
            var answer: DBusValue?
            switch result {
            case .success(let reply): answer = reply.body.first
            case .failure(let error): self.log("cannot read \(player.busName): \(error)")
            }
            self.tell {
                let read = self.update(player) { listed -> DirectoryPlayer in
                    if let answer { listed.player.properties.merge(answer) }
                    listed.player.isRead = true
                    return listed.player
                }
                return read.map { [.read($0)] } ?? []
            }
        }
    }

    /// The root interface's `Identity`, which a `player` rule may name; a player without one
    /// (or that does not answer) is matched by its bus name only.
    private func readIdentity(of player: DirectoryPlayer) {
        connection.call(ForeignPlayerQuery.identity(of: player.owner), timeout: Self.callTimeout) { [weak self] result in
            guard let self, case .success(let reply) = result,
                  case .variant(.string(let identity))? = reply.body.first else { return }
            self.tell {
                let known = self.update(player) { listed -> DirectoryPlayer in
                    listed.player.identity = String(identity.prefix(Self.identityLengthLimit))
                    return listed.player
                }
                return known.map { [.identified($0)] } ?? []
            }
        }
    }

    /// An identity is a name; a longer one is cut here (the player is not ours to trust).
    static let identityLengthLimit = 200

    /// The owner's process id, to pair the player with its audio-server streams.
    private func locate(_ player: DirectoryPlayer) {
        owners.lookUp(player.owner) { [weak self] pid in
            guard let self else { return }
            guard let pid else { return self.log("\(player.busName): no process id for \(player.owner)") }
            self.tell {
                let located = self.update(player) { listed -> DirectoryPlayer in
                    listed.player.processID = pid
                    return listed.player
                }
                return located.map { [.located($0)] } ?? []
            }
        }
    }

    /// A signal of the player's unique name on its object.
    private func signal(_ message: Message, from player: DirectoryPlayer) {
        switch (message.interface, message.member) {
        case (StandardInterfaceName.properties, "PropertiesChanged"):
            guard message.body.count >= 2, case .string(MPRISNames.playerInterface) = message.body[0] else { return }
            let changes = message.body[1]
            tell {
                let changed = update(player) { listed -> DirectoryPlayer? in
                    listed.player.properties.merge(changes)
                    if message.body.count >= 3 { listed.player.properties.invalidate(message.body[2]) }
                    // Before `read` the change is only kept: the GetAll answer includes it.
                    return listed.player.isRead ? listed.player : nil
                }
                return (changed ?? nil).map { [.changed($0, changes: changes)] } ?? []
            }
        case (MPRISNames.playerInterface, "Seeked"):
            guard case .int64(let position)? = message.body.first else { return }
            tell {
                let seeked = update(player) { listed -> DirectoryPlayer? in listed.player.isRead ? listed.player : nil }
                return (seeked ?? nil).map { [.seeked($0, position: position)] } ?? []
            }
        default:
            return
        }
    }

    /// Runs `change` on the listed player if it is still the appearance `player`; nil otherwise.
    func update<R>(_ player: DirectoryPlayer, _ change: (inout Listed) -> R) -> R? {
        state.withLock { state in
            guard var listed = state.players[player.busName], listed.player.isSame(as: player) else { return nil }
            let result = change(&listed)
            state.players[player.busName] = listed
            return result
        }
    }
}
