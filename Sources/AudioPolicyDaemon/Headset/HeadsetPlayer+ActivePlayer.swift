import DBus
import RemoteControl

/// Following the active player: its properties on the session bus, kept for the registration and
/// announced on the registered object.
extension HeadsetPlayer {
    /// A new active player (or none): the old registration goes, the new player is read.
    func activeChanged(_ player: ActivePlayer?) {
        let change = state.withLock { state -> (old: ExportedObject?, registered: Set<ObjectPath>,
                                                signals: [SignalSubscription], generation: UInt64)? in
            guard !state.stopped, state.active != player else { return nil }
            defer {
                state.active = player
                state.generation &+= 1
                state.properties = HeadsetPlayerProperties()
                state.loaded = false
                state.object = nil
                state.registered = []
                state.signals = []
            }
            return (state.object, state.registered, state.signals, state.generation &+ 1)
        }
        guard let change else { return }
        for subscription in change.signals { subscription.cancel() }
        if let old = change.old { withdraw(old, from: change.registered) }
        if let player {
            log("headset: the active player is now \(player.busName) (\(player.owner))")
            follow(player, generation: change.generation)
        } else if change.old != nil {
            log("headset: no active player; nothing registered with BlueZ")
        }
    }

    /// Subscribes to `player`'s signals, then reads its properties; the registration follows.
    func follow(_ player: ActivePlayer, generation: UInt64) {
        let properties = MatchRule(sender: player.owner, interface: StandardInterfaceName.properties,
                                   member: "PropertiesChanged", path: MPRISNames.objectPath)
        let seeked = MatchRule(sender: player.owner, interface: MPRISNames.playerInterface, member: "Seeked",
                               path: MPRISNames.objectPath)
        session.subscribe(properties, { [weak self] in self?.playerPropertiesChanged($0, generation: generation) }) {
            [weak self] result in
            guard let self else { return }
            guard case .success(let first) = result else {
                return self.log("headset: cannot follow \(player.busName); it is not registered")
            }
            guard self.keep(first, generation: generation) else { return }
            self.session.subscribe(seeked, { [weak self] in self?.playerSeeked($0, generation: generation) }) {
                [weak self] result in
                guard let self else { return }
                guard case .success(let second) = result else {
                    return self.log("headset: cannot follow \(player.busName); it is not registered")
                }
                guard self.keep(second, generation: generation) else { return }
                self.readProperties(of: player, generation: generation)
            }
        }
    }

    /// Keeps a subscription of the current player; cancels it (false) if the player changed.
    func keep(_ subscription: SignalSubscription, generation: UInt64) -> Bool {
        let kept = state.withLock { state -> Bool in
            guard !state.stopped, state.generation == generation else { return false }
            state.signals.append(subscription)
            return true
        }
        if !kept { subscription.cancel() }
        return kept
    }

    func readProperties(of player: ActivePlayer, generation: UInt64) {
        let call = Message.methodCall(destination: player.owner, path: MPRISNames.objectPath,
                                      interface: StandardInterfaceName.properties, member: "GetAll",
                                      body: [.string(MPRISNames.playerInterface)])
        session.call(call, timeout: .seconds(5)) { [weak self] reply in
            guard let self else { return }
            if case .failure(let error) = reply {
                self.log("headset: cannot read \(player.busName): \(error.message); registered with defaults")
            }
            let object = self.state.withLock { state -> Bool in
                guard !state.stopped, state.generation == generation else { return false }
                if case .success(let message) = reply, let all = message.body.first { state.properties.merge(all) }
                state.loaded = true
                return true
            }
            guard object else { return }
            self.exportObject(for: player, generation: generation)
            self.register()
        }
    }

    func playerPropertiesChanged(_ signal: Message, generation: UInt64) {
        guard signal.body.count >= 2, case .string(MPRISNames.playerInterface) = signal.body[0] else { return }
        let (object, names) = state.withLock { state -> (ExportedObject?, [String]) in
            guard !state.stopped, state.generation == generation else { return (nil, []) }
            return (state.object, state.properties.merge(signal.body[1]))
        }
        // Before the object exists the change is kept for the registration; after, announced.
        if let object, !names.isEmpty { object.propertiesChanged(MPRISNames.playerInterface, names) }
    }

    func playerSeeked(_ signal: Message, generation: UInt64) {
        guard case .int64(let position)? = signal.body.first else { return }
        let object = state.withLock { state -> ExportedObject? in
            guard !state.stopped, state.generation == generation else { return nil }
            state.properties.merge(.dictionary(key: .string, value: .variant,
                                               [DictionaryEntry(.string("Position"), .variant(.int64(position)))]))
            return state.object
        }
        try? object?.emit(MPRISNames.playerInterface, "Seeked", [.int64(position)])
    }
}
