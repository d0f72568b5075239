import DBus
import SessionCore
import SystemContext

/// Before sleep (issue 16): logind's `PrepareForSleep(true)` interrupts every playing session
/// without resume — our clients receive an interruption that ends without shouldResume at the
/// wake-up, MPRIS players are paused and not resumed after — as when headphones are pulled out:
/// after the wake-up the sound would come back on whatever output is there then. Implicit
/// sessions (apps without our API or MPRIS) are spared (`StreamPolicy.implicitSessionIDs`).
extension PolicyDaemon {
    /// Follows logind's sleep on the daemon's system-bus connection; nil (and a debug line) when
    /// there is no system bus. With `enabled` false the signal is still followed, only to say in the log
    /// why nothing was paused (and the sleep is never delayed). `spared` is asked at each sleep.
    ///
    /// While enabled, the monitor holds logind's delay lock, released once the handler returns:
    /// the handler waits until the sessions heard of the interruption (the players' Pause calls
    /// and our clients' signals are sent) and the session bus has read all of it (`session`, a
    /// round trip), so the sleep does not freeze the machine before the pauses are on their way.
    ///
    /// The handler blocks the system connection's I/O thread for that while (a second at most
    /// for the barrier): the lock, BlueZ and the headset on the same connection wait as long,
    /// which costs nothing on a machine about to sleep.
    static func watchSleep(system: AudioSystem, systemBus: Connection?, session: Connection, enabled: Bool,
                           spared: @escaping @Sendable () -> Set<SessionID>, log: DaemonLog) -> SleepMonitor? {
        guard let bus = systemBus else {
            log.debug("no system bus: sleep is not followed")
            return nil
        }
        let monitor = SleepMonitor(connection: bus, delaysSleep: enabled) { preparing in
            switch (preparing, enabled) {
            case (true, true):
                log.info("the system is going to sleep: every playing session is paused and stays paused after the "
                         + "wake-up, which may bring another output (apps without MPRIS are left to the sleep)")
                system.prepareForSleep(sparing: spared())
                system.waitForDelivery()
                sessionBusBarrier(session)
            case (true, false):
                log.info("the system is going to sleep: nothing is paused (daemon.pause-before-sleep is false)")
            case (false, true):
                log.info("the system woke up: what the sleep paused stays paused until the user plays it")
                system.wokeFromSleep()
            case (false, false):
                log.info("the system woke up")
            }
        }
        monitor.start { result in
            if case .failure(let error) = result { log.debug("sleep not followed: \(error)") }
        }
        return monitor
    }

    /// Returns once the session bus has read every message sent before (its answer to `GetId`
    /// comes after them), or after a second.
    private static func sessionBusBarrier(_ connection: Connection) {
        let call = Message.methodCall(destination: BusDaemon.name, path: BusDaemon.path,
                                      interface: BusDaemon.interface, member: "GetId")
        _ = try? connection.callAndWait(call, timeout: .seconds(1))
    }
}
