import DBus
import Posix
import Synchronization
import SystemContext

/// The desktop's Do Not Disturb as silent mode (`DesktopDoNotDisturb`): at start the desktop's
/// switch wins, and every change of it after is written into silent mode's state file, which the
/// daemon follows (`followSilentMode`). Followed by the store's change signal; idle, nothing runs.
extension PolicyDaemon {
    static func followDoNotDisturb(_ connection: Connection, log: DaemonLog) -> DoNotDisturbFollower? {
        guard let desktop = DesktopDoNotDisturb.current else { return nil }
        let follower = DoNotDisturbFollower(desktop: desktop, log: log)
        let subscribed = Latch<Result<SignalSubscription, DBusError>>()
        connection.subscribe(desktop.changeRule, { signal in
            if let on = desktop.value(in: signal) { follower.adopt(on) }
        }, timeout: .seconds(2), completion: { subscribed.open(with: $0) })
        switch subscribed.wait() {
        case .success(let subscription):
            follower.hold(subscription)
        case .failure(let error):
            log.warning("\(desktop.switchName) is not followed: \(error)")
            return nil
        }
        // Read once the rule is in place, so that no change falls between the two.
        guard let on = desktop.read(connection) else {
            log.info("\(desktop.switchName) is not followed: its settings store does not answer")
            follower.stop()
            return nil
        }
        log.info("silent mode follows \(desktop.switchName)")
        follower.adopt(on)
        return follower
    }
}

/// The subscription to the switch's changes and what it does with them.
final class DoNotDisturbFollower: Sendable {
    let desktop: DesktopDoNotDisturb
    private let log: DaemonLog
    private let subscription = Mutex<SignalSubscription?>(nil)

    init(desktop: DesktopDoNotDisturb, log: DaemonLog) {
        self.desktop = desktop
        self.log = log
    }

    func hold(_ subscription: SignalSubscription) {
        self.subscription.withLock { $0 = subscription }
    }

    /// Silent mode as the switch is now (a write only when they differ).
    func adopt(_ on: Bool) {
        guard on != SilentModeSetting.read() else { return }
        log.info("\(desktop.rawValue)'s Do Not Disturb is \(on ? "on" : "off"): silent mode \(on ? "on" : "off")")
        do { try SilentModeSetting.write(on) } catch { log.warning("silent mode not saved: \(error)") }
    }

    func stop() {
        subscription.withLock { $0?.cancel(); $0 = nil }
    }
}
