import DBus
import Synchronization
import SystemContext

/// GNOME's Do Not Disturb as silent mode (`DesktopDoNotDisturb`): at start the desktop's switch
/// wins, and every change of it after is written into silent mode's state file, which the daemon
/// follows (`followSilentMode`). Followed by dconf-service's `Notify` signal; idle, nothing runs.
extension PolicyDaemon {
    static func followDoNotDisturb(_ connection: Connection, log: DaemonLog) -> DoNotDisturbFollower? {
        guard DesktopDoNotDisturb.isFollowed else { return nil }
        guard DesktopDoNotDisturb.read() != nil else {
            log.info("GNOME's Do Not Disturb is not followed: libdconf cannot be loaded")
            return nil
        }
        let follower = DoNotDisturbFollower(log: log)
        connection.subscribe(DesktopDoNotDisturb.notifyRule, { signal in
            if DesktopDoNotDisturb.touchesKey(signal) { follower.adopt() }
        }, completion: { result in
            switch result {
            case .success(let subscription):
                follower.hold(subscription)
                follower.adopt()  // a change before the rule was in place is not missed
            case .failure(let error):
                log.warning("GNOME's Do Not Disturb is not followed: \(error)")
            }
        })
        log.info("silent mode follows GNOME's Do Not Disturb (\(DesktopDoNotDisturb.key))")
        return follower
    }
}

/// The subscription to dconf's changes and what it does with them.
final class DoNotDisturbFollower: Sendable {
    private let log: DaemonLog
    private let subscription = Mutex<SignalSubscription?>(nil)

    init(log: DaemonLog) {
        self.log = log
        adopt()
    }

    func hold(_ subscription: SignalSubscription) {
        self.subscription.withLock { $0 = subscription }
    }

    /// Silent mode as the switch is now (a write only when they differ).
    func adopt() {
        guard let on = DesktopDoNotDisturb.read(), on != SilentModeSetting.read() else { return }
        log.info("GNOME's Do Not Disturb is \(on ? "on" : "off"): silent mode \(on ? "on" : "off")")
        do { try SilentModeSetting.write(on) } catch { log.warning("silent mode not saved: \(error)") }
    }

    func stop() {
        subscription.withLock { $0?.cancel(); $0 = nil }
    }
}
