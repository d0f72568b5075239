import DBus
import RemoteControl

/// The object registered with BlueZ for the active player: `org.mpris.MediaPlayer2.Player` with
/// the properties bluetoothd reads (`HeadsetPlayerProperties`) and the methods it calls.
extension HeadsetPlayer {
    /// The object's path for `player`, named after its unique name as mpris-proxy does
    /// (`:1.42` → `/org/mprisd/Headset/_1_42`), so BlueZ's log says which player it was.
    static func objectPath(for player: ActivePlayer) -> ObjectPath {
        let element = String(player.owner.map { $0.isLetter || $0.isNumber ? $0 : "_" }.filter(\.isASCII))
        return (try? ObjectPath("/org/mprisd/Headset/" + (element.isEmpty ? "player" : element)))
            ?? ObjectPath(trusted: "/org/mprisd/Headset/player")
    }

    /// Exports the object for `player` and makes it the current one, unless the active player
    /// changed meanwhile.
    func exportObject(for player: ActivePlayer, generation: UInt64) {
        let object: ExportedObject
        do {
            object = try system.export(Self.objectPath(for: player), interfaces: [interface(generation: generation)])
        } catch {
            return log("headset: cannot export the player for \(player.busName): \(error.message)")
        }
        let current = state.withLock { state -> Bool in
            guard !state.stopped, state.generation == generation else { return false }
            state.object = object
            return true
        }
        if !current { object.unexport() }
    }

    private func interface(generation: UInt64) -> Interface {
        let properties = HeadsetPlayerProperties.declared.map { declaration in
            let name = declaration.name
            // The headset's repeat and shuffle settings: bluetoothd writes them with `Set`.
            var set: (@Sendable (DBusValue, Message) throws -> Void)?
            if HeadsetPlayerProperties.writable.contains(name) {
                set = { [weak self] value, call in
                    guard let self else { return }
                    try self.setting(name, to: value, call: call, generation: generation)
                }
            }
            return Property(name, declaration.type, changeSignal: name == "Position" ? .none : .emits,
                            get: { [weak self] in self?.shown(name, generation: generation) ?? declaration.fallback },
                            setFromCall: set)
        }
        let forwarded = ["Play", "Pause", "PlayPause", "Stop", "Next", "Previous"].map { member in
            Method.immediate(member) { [weak self] call in
                try self?.command(call, member: member, generation: generation)
                return []
            }
        }
        let seek = Method.immediate("Seek", inputs: [Argument("Offset", .int64)]) { [weak self] call in
            try self?.command(call, member: "Seek", generation: generation)
            return []
        }
        let setPosition = Method.immediate("SetPosition", inputs: [Argument("TrackId", .objectPath),
                                                                   Argument("Position", .int64)]) { [weak self] call in
            try self?.command(call, member: "SetPosition", generation: generation)
            return []
        }
        return Interface(MPRISNames.playerInterface, methods: forwarded + [seek, setPosition],
                         properties: properties, signals: [SignalDescription("Seeked", [Argument("Position", .int64)])])
    }

    /// The value of `name` for the player of `generation`.
    private func shown(_ name: String, generation: UInt64) -> DBusValue {
        state.withLock { state in
            state.generation == generation ? state.properties.value(name) : HeadsetPlayerProperties().value(name)
        }
    }
}
