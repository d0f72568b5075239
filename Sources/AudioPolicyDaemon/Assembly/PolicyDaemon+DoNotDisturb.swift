import DBus
import Posix
import Synchronization
import SystemContext

/// The desktop's Do Not Disturb as silent mode (`DesktopDoNotDisturb`): at start the desktop's
/// switch wins, and every change of it after is written into silent mode's state file, which the
/// daemon follows (`followSilentMode`). Followed by the store's change signal; idle, nothing runs.
extension PolicyDaemon {
    /// Follows the desktop's switch into `slot`: at once for the desktop `XDG_CURRENT_DESKTOP`
    /// names; when it names none — the user unit starts with the user manager, before the desktop
    /// has told it its variables — once a desktop's shell takes its name on the bus
    /// (`DesktopArrival`), which is then returned to be stopped with the daemon.
    static func followDoNotDisturb(_ connection: Connection, log: DaemonLog,
                                   into slot: DesktopSwitch) -> DesktopArrival? {
        if let desktop = DesktopDoNotDisturb.current {
            slot.follower.withLock { $0 = startFollowing(desktop, connection, log: log) }
            return nil
        }
        return DesktopArrival(connection, log: log) { desktop in
            let follower = startFollowing(desktop, connection, log: log)
            let kept = slot.follower.withLock { held -> Bool in
                guard held == nil else { return false }
                held = follower
                return true
            }
            if !kept { follower?.stop() }
        }
    }

    /// The follower of `desktop`'s switch, subscribed and read; nil when its store does not answer.
    /// Waits for the bus: not on its I/O thread.
    static func startFollowing(_ desktop: DesktopDoNotDisturb, _ connection: Connection, log: DaemonLog) -> DoNotDisturbFollower? {
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

/// The follower of the desktop's switch, once there is one (set from the arrival's thread, read
/// by silent mode's watcher and `SetSilentMode`).
final class DesktopSwitch: Sendable {
    let follower = Mutex<DoNotDisturbFollower?>(nil)

    var current: DoNotDisturbFollower? { follower.withLock { $0 } }
}

/// The desktop known by its shell's name on the bus, for a daemon started before the desktop
/// set `XDG_CURRENT_DESKTOP` for the user's services: GNOME Shell (`org.gnome.Shell`), Plasma
/// (`org.kde.plasmashell`), Xfce's session manager (`org.xfce.SessionManager`). Followed by the
/// bus's `NameOwnerChanged` (no polling); the first to appear wins, once, on a thread of its own
/// (following the switch waits for the bus).
final class DesktopArrival: Sendable {
    static let shells: [(name: String, desktop: DesktopDoNotDisturb)] = [
        ("org.gnome.Shell", .gnome), ("org.kde.plasmashell", .kde), ("org.xfce.SessionManager", .xfce),
    ]

    private struct State {
        var watches: [SignalSubscription] = []
        var arrived = false
        var stopped = false
    }

    private let state = Mutex(State())

    init(_ connection: Connection, log: DaemonLog, arrived: @escaping @Sendable (DesktopDoNotDisturb) -> Void) {
        for (name, desktop) in Self.shells {
            connection.watchNameOwner(name, { [weak self] owner in
                guard owner != nil, let self, self.claim() else { return }
                log.info("\(name) is on the bus: the desktop is \(desktop.rawValue)")
                do throws(PosixError) {
                    try NamedThread.detached(name: "desktop-switch") { arrived(desktop) }
                } catch {
                    log.warning("\(desktop.switchName) is not followed: no thread (\(error))")
                }
            }, completion: { [weak self] result in
                guard case .success(let watch) = result else { return }
                let kept = self?.state.withLock { state -> Bool in
                    guard !state.stopped else { return false }
                    state.watches.append(watch)
                    return true
                } ?? false
                if !kept { watch.cancel() }
            })
        }
    }

    /// True for the first arrival only.
    private func claim() -> Bool {
        state.withLock { state in
            guard !state.arrived, !state.stopped else { return false }
            state.arrived = true
            return true
        }
    }

    func stop() {
        let watches = state.withLock { state -> [SignalSubscription] in
            state.stopped = true
            defer { state.watches = [] }
            return state.watches
        }
        watches.forEach { $0.cancel() }
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
