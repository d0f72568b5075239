import DBus
import MPRISDirectory
import RemoteControl

/// Following the active player: its properties as the directory has them, kept for the
/// registration and announced on the registered object.
extension HeadsetPlayer {
    /// A new active player (or none): the old registration goes; the new one is made once the
    /// directory has read the player (at once if it has).
    func activeChanged(_ player: ActivePlayer?) {
        let change = state.withLock { state -> (old: ExportedObject?, registered: Set<ObjectPath>, generation: UInt64)? in
            guard !state.stopped, state.active != player else { return nil }
            defer {
                state.active = player
                state.generation &+= 1
                state.properties = HeadsetPlayerProperties()
                state.pending = MPRISPropertyStore()
                state.loaded = false
                state.object = nil
                state.registered = []
            }
            return (state.object, state.registered, state.generation &+ 1)
        }
        guard let change else { return }
        if let old = change.old { withdraw(old, from: change.registered) }
        if let player {
            log("headset: the active player is now \(player.busName) (\(player.owner))")
            if let listed = directory.player(player.busName), listed.isRead { load(listed) }
        } else if change.old != nil {
            log("headset: no active player; nothing registered with BlueZ")
        }
    }

    /// One event of the directory: only the active player's matter.
    func directoryEvent(_ event: PlayerDirectoryEvent) {
        switch event {
        case .read(let player):
            load(player)
        case .changed(let player, let changes):
            propertiesChanged(changes, of: player)
        case .seeked(let player, let position):
            seeked(position, by: player)
        case .appeared, .identified, .located, .vanished:
            return
        }
    }

    /// Whether `listed` is the active player now.
    private static func isActive(_ listed: DirectoryPlayer, _ state: State) -> Bool {
        !state.stopped && state.active == ActivePlayer(busName: listed.busName, owner: listed.owner)
    }

    /// The active player's properties are read: its object is exported and registered (once).
    /// The changes told since it became active are applied over `listed` (which the active
    /// player's change, made on another thread, may have read before them), in order.
    private func load(_ listed: DirectoryPlayer) {
        let work = state.withLock { state -> (ActivePlayer, UInt64)? in
            guard Self.isActive(listed, state), !state.loaded, let active = state.active else { return nil }
            state.properties.merge(listed.properties.dictionary)
            state.properties.merge(state.pending.dictionary)
            state.pending = MPRISPropertyStore()
            state.loaded = true
            return (active, state.generation)
        }
        guard let (player, generation) = work else { return }
        exportObject(for: player, generation: generation)
        register()
    }

    private func propertiesChanged(_ changes: DBusValue, of listed: DirectoryPlayer) {
        let (object, names) = state.withLock { state -> (ExportedObject?, [String]) in
            guard Self.isActive(listed, state) else { return (nil, []) }
            guard state.loaded else {
                state.pending.merge(changes)
                return (nil, [])
            }
            return (state.object, state.properties.merge(changes))
        }
        if let object, !names.isEmpty { object.propertiesChanged(MPRISNames.playerInterface, names) }
    }

    private func seeked(_ position: Int64, by listed: DirectoryPlayer) {
        let object = state.withLock { state -> ExportedObject? in
            guard Self.isActive(listed, state) else { return nil }
            let change = DBusValue.dictionary(key: .string, value: .variant,
                                              [DictionaryEntry(.string("Position"), .variant(.int64(position)))])
            guard state.loaded else {
                state.pending.merge(change)
                return nil
            }
            state.properties.merge(change)
            return state.object
        }
        try? object?.emit(MPRISNames.playerInterface, "Seeked", [.int64(position)])
    }
}
