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
        let follower = DoNotDisturbFollower(desktop: desktop, connection: connection, log: log)
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

/// The subscription to the switch's changes and what it does with them; on KDE Plasma, the
/// inhibition that is silent mode (`DesktopDoNotDisturb.kde`).
final class DoNotDisturbFollower: Sendable {
    let desktop: DesktopDoNotDisturb
    private let connection: Connection
    private let log: DaemonLog
    private let subscription = Mutex<SignalSubscription?>(nil)
    /// Plasma's cookie for the daemon's inhibition, while it holds one.
    private let inhibition = Mutex<UInt32?>(nil)

    init(desktop: DesktopDoNotDisturb, connection: Connection, log: DaemonLog) {
        self.desktop = desktop
        self.connection = connection
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

    /// Silent mode changed (its file, followed by the daemon): on KDE Plasma, the daemon takes or
    /// lets go of its inhibition. Letting go leaves Do Not Disturb on when the user's switch or
    /// another app holds it: silent mode then follows the desktop back on, so the two agree.
    /// Runs on the file watcher's thread (it waits for the server).
    func silentModeChanged(_ on: Bool) {
        guard desktop == .kde else { return }
        let names = DesktopDoNotDisturb.notifications
        if on {
            guard inhibition.withLock({ $0 }) == nil, desktop.read(connection) != true else { return }
            let call = Message.methodCall(destination: names.name, path: names.path, interface: names.interface, member: "Inhibit",
                                          body: [.string("mprisd"), .string("Silent mode"), .dictionary(key: .string, value: .variant, [])])
            do {
                guard case .uint32(let cookie)? = try connection.callAndWait(call, timeout: .seconds(2)).body.first else {
                    return log.warning("KDE Plasma's Do Not Disturb not switched on: Inhibit answered no cookie")
                }
                inhibition.withLock { $0 = cookie }
                log.info("KDE Plasma's Do Not Disturb on for silent mode (inhibition \(cookie))")
            } catch {
                log.warning("KDE Plasma's Do Not Disturb not switched on: \(error)")
            }
        } else {
            if let cookie = inhibition.withLock({ held in defer { held = nil }; return held }) {
                let call = Message.methodCall(destination: names.name, path: names.path, interface: names.interface,
                                              member: "UnInhibit", body: [.uint32(cookie)])
                // An inhibition the user's switch already cleared answers an error: nothing to undo.
                _ = try? connection.callAndWait(call, timeout: .seconds(2))
            }
            if desktop.read(connection) == true {
                log.info("KDE Plasma's Do Not Disturb stays on (the user's switch or another app holds it)")
                adopt(true)
            }
        }
    }

    func stop() {
        subscription.withLock { $0?.cancel(); $0 = nil }
    }
}
