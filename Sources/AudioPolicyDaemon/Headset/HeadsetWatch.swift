import DBus
import MPRISDirectory

/// The headset player on the daemon's system-bus connection, made and stopped by the daemon.
struct HeadsetWatch {
    let bus: Connection
    let player: HeadsetPlayer

    /// Registers `activePlayer`'s choice, one of `directory`'s players, with BlueZ; nil (logged)
    /// without a system bus.
    static func start(directory: PlayerDirectory, system: Connection?, log: DaemonLog,
                      activePlayer: @escaping HeadsetPlayer.ActivePlayerSource) -> HeadsetWatch? {
        guard let bus = system else {
            log.debug("no system bus: no player is registered with BlueZ")
            return nil
        }
        let player = HeadsetPlayer(directory: directory, system: bus, log: { log.info($0) }, warn: { log.warning($0) })
        player.start(activePlayer: activePlayer) { result in
            if case .failure(let error) = result { log.warning("headset: BlueZ not followed: \(error.message)") }
        }
        return HeadsetWatch(bus: bus, player: player)
    }

    /// Withdraws the registration and waits until the bus has the `UnregisterPlayer` calls (the
    /// answer to `GetId` comes after them). The connection stays open: it is the daemon's.
    func stop() {
        player.stop()
        let call = Message.methodCall(destination: BusDaemon.name, path: BusDaemon.path,
                                      interface: BusDaemon.interface, member: "GetId")
        _ = try? bus.callAndWait(call, timeout: .seconds(2))
    }
}
