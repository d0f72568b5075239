import DBus
import RemoteControl

/// The headset's commands, as bluetoothd calls them on the registered object, forwarded to the
/// active player on the session bus.
///
/// Faithful: each method goes to the player as the same method (bluetoothd already mapped PLAY →
/// `Play`, PAUSE → `Pause`, STOP → `Stop`, FORWARD → `Next`, BACKWARD → `Previous`), with one
/// rule more: a `Pause` is sent only to a player that says it is `Playing` now (asked, not
/// remembered), so a player that toggles on `Pause` is never started by it (tidal-hifi#800).
///
/// Only bluetoothd may command: the object is on the system bus, which every local user can
/// call; a call from anyone but `org.bluez`'s owner is refused with `AccessDenied`.
extension HeadsetPlayer {
    func command(_ call: Message, member: String, generation: UInt64) throws(DBusError) {
        guard let target = try commandTarget(of: call, member: member, generation: generation) else { return }
        if member == "Pause" {
            pauseIfPlaying(target)
        } else {
            forward(member, call.body, to: target)
        }
    }

    /// bluetoothd sets the headset's repeat or shuffle setting: `Set` on the active player, the
    /// value checked first (a `LoopStatus` other than the three names is refused, as a player
    /// would refuse it).
    func setting(_ name: String, to value: DBusValue, call: Message, generation: UInt64) throws(DBusError) {
        // The caller before the value: a stranger learns nothing about what would be accepted.
        try checkCaller(of: call, member: "Set \(name)")
        if name == "LoopStatus", case .string(let status) = value, !["None", "Track", "Playlist"].contains(status) {
            throw DBusError.invalidArgs("LoopStatus is None, Track or Playlist, not '\(status)'")
        }
        guard let target = try commandTarget(of: call, member: "Set \(name)", generation: generation) else { return }
        log("headset: \(name) = \(value) → \(target.busName)")
        let set = Message.methodCall(destination: target.owner, path: MPRISNames.objectPath,
                                     interface: StandardInterfaceName.properties, member: "Set",
                                     body: [.string(MPRISNames.playerInterface), .string(name), .variant(value)])
        session.call(set, timeout: .seconds(5)) { [log] reply in
            if case .failure(let error) = reply { log("headset: \(name) on \(target.busName) failed: \(error.message)") }
        }
    }

    /// The player a call from bluetoothd acts on: nil (logged) when the object's player is no
    /// longer the active one; `AccessDenied` for a caller that is not bluetoothd.
    private func commandTarget(of call: Message, member: String, generation: UInt64) throws(DBusError) -> ActivePlayer? {
        try checkCaller(of: call, member: member)
        let target = state.withLock { state in state.generation == generation && !state.stopped ? state.active : nil }
        if target == nil { log("headset: \(member) dropped: that player is no longer the active one") }
        return target
    }

    /// `AccessDenied` for a caller that is not bluetoothd; the refusals logged at a bounded rate
    /// (`refusalLog`), since anyone on the system bus can call.
    private func checkCaller(of call: Message, member: String) throws(DBusError) {
        let bluez = state.withLock { $0.bluez }
        guard let bluez, call.sender == bluez else {
            let line = "headset: \(member) from \(call.sender ?? "?") refused: only bluetoothd commands the headset player"
            if let admitted = refusalLog.admit(line) { log(admitted) }
            throw DBusError.accessDenied("only bluetoothd (org.bluez) commands this player")
        }
    }

    private func forward(_ member: String, _ arguments: [DBusValue], to player: ActivePlayer) {
        log("headset: \(member) → \(player.busName)")
        MPRISRemote(connection: session, owner: player.owner).call(member, arguments) { [log] reply in
            if case .failure(let error) = reply { log("headset: \(member) to \(player.busName) failed: \(error.message)") }
        }
    }

    /// `Pause` only if `PlaybackStatus` is `Playing` when asked (`MPRISRemote.pauseIfPlaying`).
    private func pauseIfPlaying(_ player: ActivePlayer) {
        MPRISRemote(connection: session, owner: player.owner).pauseIfPlaying { [log] outcome in
            switch outcome {
            case .sent: log("headset: Pause → \(player.busName)")
            case .notPlaying(let status): log("headset: Pause not sent to \(player.busName): it is \(status), not Playing")
            case .failed(let error): log("headset: Pause to \(player.busName) failed: \(error.message)")
            }
        }
    }
}
