import DBus
import SessionCore

/// Follows BlueZ on the system bus and reports Bluetooth headsets and speakers becoming usable as
/// audio routes or going away.
///
/// How it works, all of it on the connection's I/O thread and without Swift concurrency, timers or
/// polling (the daemon and the player must wake zero times while nothing happens); following
/// BlueZ's name, its subscriptions and its restarts is `SystemServiceFollower`'s part:
/// - It follows the owner of `org.bluez` (`NameOwnerChanged`). While nobody owns it there are no
///   routes and nothing is reported: BlueZ not installed, not started yet or restarting is normal,
///   not an error.
/// - When an owner appears, it reads every object at once with
///   `org.freedesktop.DBus.ObjectManager.GetManagedObjects` on `/`, asked of that very owner.
/// - From then on it follows `InterfacesAdded`/`InterfacesRemoved` (which bluetoothd emits from
///   its object manager at `/`) and `PropertiesChanged` under path namespace `/org/bluez`. The
///   matches are on the bus before the name is looked at, so nothing falls between the snapshot
///   and the signals; signals that arrive while the snapshot is on its way are already part of it
///   (the bus keeps one sender's messages in order) and are skipped.
/// - When the owner goes (BlueZ stopped or crashed) or the bus connection is lost, every current
///   route is reported `.disconnected`.
///
/// Which devices are routes is decided by `BluetoothRouteRules`. Events go to the handler given at
/// creation, on the connection's I/O thread, in order; it must return quickly and may read
/// `routes`. The monitor never calls the handler while holding its own lock.
public final class BluetoothMonitor: Sendable {
    /// Receives every route event, on the connection's I/O thread.
    public typealias Handler = @Sendable (BluetoothRouteEvent) -> Void

    private let handler: Handler
    private let follower: SystemServiceFollower<Tracked, Result<Message, DBusError>, [BluetoothRouteEvent]>

    /// What BlueZ said, and the routes it makes.
    private struct Tracked {
        var tree = BluezObjectTree()
        var routes: [String: AudioPort] = [:]

        /// Whatever the old bluetoothd had connected is gone with it.
        mutating func forget() -> [BluetoothRouteEvent] {
            tree.removeAll()
            let events = BluetoothRouteEvent.changes(from: routes, to: [:])
            routes.removeAll()
            return events
        }

        mutating func take(_ reply: Result<Message, DBusError>) -> [BluetoothRouteEvent] {
            // A failed read (bluetoothd exiting as it answers, an old BlueZ) is not worth a
            // message: the signals that follow still build the picture up.
            if case .success(let reply) = reply, let objects = BluezSignalDecoding.managedObjects(reply.body) {
                tree.replaceAll(with: objects)
            }
            return updateRoutes()
        }

        /// Recomputes the routes from the tree and returns the events that lead there.
        mutating func updateRoutes() -> [BluetoothRouteEvent] {
            let new = BluetoothRouteRules.routes(in: tree)
            let events = BluetoothRouteEvent.changes(from: routes, to: new)
            routes = new
            return events
        }
    }

    /// A monitor on `connection`, which must be a connection to the system bus (where bluetoothd
    /// lives). Nothing happens until `start`.
    public init(connection: Connection, handler: @escaping Handler) {
        self.handler = handler
        follower = SystemServiceFollower(
            connection: connection, busName: BluezNames.busName, name: "the Bluetooth monitor", tracked: Tracked(),
            forget: { $0.forget() },
            read: { owner, done in
                connection.call(Message.methodCall(destination: owner, path: BluezNames.objectManagerPath,
                                                   interface: StandardInterfaceName.objectManager,
                                                   member: "GetManagedObjects"), completion: done)
            },
            take: { reply, tracked in tracked.take(reply) },
            report: { events in for event in events { handler(event) } })
    }

    deinit {
        stop()
    }

    /// The current Bluetooth audio routes, in port id order.
    public var routes: [AudioPort] {
        follower.withTracked { $0.routes.values.sorted { $0.id < $1.id } }
    }

    /// Whether bluetoothd currently owns `org.bluez`.
    public var isBluezRunning: Bool {
        follower.isServiceRunning
    }

    /// Subscribes to BlueZ's signals and starts following `org.bluez`. `completion` runs (on the
    /// I/O thread, or at once on the caller's thread if the connection is closed) when the monitor
    /// is in place and, if BlueZ runs, its objects have been read: the routes that exist at start
    /// have been reported and `routes` lists them. It fails only when the bus itself refuses (a
    /// match rule rejected, the connection gone) or `stop` came first, never because BlueZ is
    /// absent or does not answer (then it runs after libdbus's call timeout, with no routes).
    ///
    /// A monitor starts once; a stopped one stays stopped.
    public func start(completion: @escaping @Sendable (Result<Void, DBusError>) -> Void) {
        follower.start(signals: [
            (MatchRule(sender: BluezNames.busName, interface: StandardInterfaceName.objectManager,
                       path: BluezNames.objectManagerPath),
             { @Sendable [weak self] in self?.objectManagerSignal($0) }),
            (MatchRule(sender: BluezNames.busName, interface: StandardInterfaceName.properties,
                       member: "PropertiesChanged", pathNamespace: BluezNames.objectNamespace),
             { @Sendable [weak self] in self?.propertiesSignal($0) }),
        ], completion: completion)
    }

    /// Stops following BlueZ: cancels the subscriptions and forgets the routes, without reporting
    /// them as disconnected (the devices did not go anywhere; the monitor stopped looking).
    public func stop() {
        follower.stop()
    }

    // MARK: Signals

    /// A signal is applied only when it comes from the current bluetoothd and no snapshot is on
    /// its way (the snapshot already contains it: the bus keeps one sender's messages in order).
    private func objectManagerSignal(_ signal: Message) {
        let events = follower.fromOwner(signal) { tracked, loading -> [BluetoothRouteEvent] in
            guard !loading else { return [] }
            switch signal.member {
            case "InterfacesAdded":
                guard let added = BluezSignalDecoding.interfacesAdded(signal.body) else { return [] }
                tracked.tree.addInterfaces(added.interfaces, at: added.path)
            case "InterfacesRemoved":
                guard let removed = BluezSignalDecoding.interfacesRemoved(signal.body) else { return [] }
                tracked.tree.removeInterfaces(removed.interfaces, at: removed.path)
            default:
                return []
            }
            return tracked.updateRoutes()
        } ?? []
        deliver(events)
    }

    private func propertiesSignal(_ signal: Message) {
        let events = follower.fromOwner(signal) { tracked, loading -> [BluetoothRouteEvent] in
            guard !loading, let path = signal.path,
                  let change = BluezSignalDecoding.propertiesChanged(signal.body) else { return [] }
            tracked.tree.changeProperties(change.changed, invalidated: change.invalidated,
                                          interface: change.interface, at: path)
            return tracked.updateRoutes()
        } ?? []
        deliver(events)
    }

    private func deliver(_ events: [BluetoothRouteEvent]) {
        for event in events { handler(event) }
    }
}
