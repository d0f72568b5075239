import DBus
import SessionCore
import Synchronization

/// Follows BlueZ on the system bus and reports Bluetooth headsets and speakers becoming usable as
/// audio routes or going away (issue 5, "Bluetooth monitor").
///
/// How it works, all of it on the connection's I/O thread and without Swift concurrency, timers or
/// polling (the daemon and the player must wake zero times while nothing happens):
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

    private let connection: Connection
    private let handler: Handler
    private let state = Mutex(State())

    private struct State {
        enum Phase { case created, starting, running, stopped }

        var phase = Phase.created
        var subscriptions: [SignalSubscription] = []
        var eventToken: UInt64?
        /// The unique name of the current bluetoothd, if any.
        var owner: String?
        /// Bumped on every owner change and on `stop`: a snapshot reply from an older generation
        /// describes a BlueZ that is gone, and is dropped.
        var generation: UInt64 = 0
        /// A `GetManagedObjects` is on its way: signals are already included in it.
        var loading = false
        var tree = BluezObjectTree()
        var routes: [String: AudioPort] = [:]
        /// `start`'s completion, held until the first snapshot (if BlueZ runs) is in.
        var pendingStart: (@Sendable (Result<Void, DBusError>) -> Void)?

        var isLive: Bool { phase == .starting || phase == .running }

        /// A signal is applied only when it comes from the current bluetoothd and no snapshot is
        /// on its way (the snapshot already contains it).
        func accepts(_ signal: Message) -> Bool {
            guard let owner, !loading else { return false }
            return signal.sender == owner
        }
    }

    /// A monitor on `connection`, which must be a connection to the system bus (where bluetoothd
    /// lives). Nothing happens until `start`.
    public init(connection: Connection, handler: @escaping Handler) {
        self.connection = connection
        self.handler = handler
    }

    deinit {
        stop()
    }

    /// The current Bluetooth audio routes, in port id order.
    public var routes: [AudioPort] {
        state.withLock { $0.routes.values.sorted { $0.id < $1.id } }
    }

    /// Whether bluetoothd currently owns `org.bluez`.
    public var isBluezRunning: Bool {
        state.withLock { $0.owner != nil }
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
        let allowed = state.withLock { state -> Bool in
            guard state.phase == .created else { return false }
            state.phase = .starting
            return true
        }
        guard allowed else {
            return completion(.failure(.failed("the Bluetooth monitor was already started")))
        }
        let token = connection.onEvent { [weak self] event in
            if event == .disconnected { self?.ownerChanged(to: nil) }
        }
        state.withLock { $0.eventToken = token }

        let objectManager = MatchRule(sender: BluezNames.busName, interface: BluezNames.objectManagerInterface,
                                      path: BluezNames.objectManagerPath)
        let properties = MatchRule(sender: BluezNames.busName, interface: BluezNames.propertiesInterface,
                                   member: "PropertiesChanged", pathNamespace: BluezNames.objectNamespace)
        // A failure part-way undoes what was set up, so a failed monitor holds nothing on the bus.
        let fail: @Sendable (DBusError) -> Void = { [weak self] error in
            self?.stop()
            completion(.failure(error))
        }
        subscribe(objectManager, { [weak self] in self?.objectManagerSignal($0) }, failure: fail) { [weak self] in
            guard let self else { return fail(Self.stoppedError) }
            self.subscribe(properties, { [weak self] in self?.propertiesSignal($0) }, failure: fail) { [weak self] in
                guard let self else { return fail(Self.stoppedError) }
                self.watchOwner(completion: completion, failure: fail)
            }
        }
    }

    /// Stops following BlueZ: cancels the subscriptions and forgets the routes, without reporting
    /// them as disconnected (the devices did not go anywhere; the monitor stopped looking).
    public func stop() {
        let (subscriptions, token, pendingStart) = state.withLock { state in
            state.phase = .stopped
            state.generation &+= 1
            state.owner = nil
            state.loading = false
            state.tree.removeAll()
            state.routes.removeAll()
            defer {
                state.subscriptions.removeAll()
                state.eventToken = nil
                state.pendingStart = nil
            }
            return (state.subscriptions, state.eventToken, state.pendingStart)
        }
        for subscription in subscriptions { subscription.cancel() }
        if let token { connection.removeEventHandler(token) }
        pendingStart?(.failure(Self.stoppedError))
    }

    // MARK: Setting up

    /// Subscribes, keeps the subscription (or cancels it if the monitor was stopped meanwhile) and
    /// continues with `next`.
    private func subscribe(_ rule: MatchRule, _ signalHandler: @escaping @Sendable (Message) -> Void,
                           failure: @escaping @Sendable (DBusError) -> Void,
                           next: @escaping @Sendable () -> Void) {
        connection.subscribe(rule, signalHandler) { [weak self] result in
            switch result {
            case .success(let subscription):
                guard let self, self.keep(subscription) else {
                    subscription.cancel()
                    return failure(Self.stoppedError)
                }
                next()
            case .failure(let error):
                failure(error)
            }
        }
    }

    private func watchOwner(completion: @escaping @Sendable (Result<Void, DBusError>) -> Void,
                            failure: @escaping @Sendable (DBusError) -> Void) {
        connection.watchNameOwner(BluezNames.busName, { [weak self] owner in
            self?.ownerChanged(to: owner)
        }, completion: { [weak self] result in
            switch result {
            case .success(let subscription):
                guard let self, self.keep(subscription, running: true, completion: completion) else {
                    subscription.cancel()
                    return failure(Self.stoppedError)
                }
                self.finishStartIfSettled()
            case .failure(let error):
                failure(error)
            }
        })
    }

    /// Records a subscription (and, for the last one, that the monitor runs and who waits for the
    /// first snapshot); false when the monitor was stopped in the meantime.
    private func keep(_ subscription: SignalSubscription, running: Bool = false,
                      completion: (@Sendable (Result<Void, DBusError>) -> Void)? = nil) -> Bool {
        state.withLock { state in
            guard state.isLive else { return false }
            state.subscriptions.append(subscription)
            if running {
                state.phase = .running
                state.pendingStart = completion
            }
            return true
        }
    }

    /// Completes `start` once the monitor runs and no snapshot is on its way.
    private func finishStartIfSettled() {
        let completion = state.withLock { state -> (@Sendable (Result<Void, DBusError>) -> Void)? in
            guard state.phase == .running, !state.loading else { return nil }
            defer { state.pendingStart = nil }
            return state.pendingStart
        }
        completion?(.success(()))
    }

    private static let stoppedError = DBusError.failed("the Bluetooth monitor was stopped while starting")

    // MARK: BlueZ coming and going

    /// `org.bluez` changed hands (or the bus went away: `owner` nil). Whatever the old bluetoothd
    /// had connected is gone with it; a new one is read from scratch.
    private func ownerChanged(to owner: String?) {
        let (events, generation) = state.withLock { state -> ([BluetoothRouteEvent], UInt64?) in
            guard state.isLive, state.owner != owner else { return ([], nil) }
            state.generation &+= 1
            state.owner = owner
            state.loading = owner != nil
            state.tree.removeAll()
            let events = BluetoothRouteEvent.changes(from: state.routes, to: [:])
            state.routes.removeAll()
            return (events, owner == nil ? nil : state.generation)
        }
        deliver(events)
        if let owner, let generation {
            readAllObjects(of: owner, generation: generation)
        } else {
            finishStartIfSettled()
        }
    }

    private func readAllObjects(of owner: String, generation: UInt64) {
        let request = Message.methodCall(destination: owner, path: BluezNames.objectManagerPath,
                                         interface: BluezNames.objectManagerInterface,
                                         member: "GetManagedObjects")
        connection.call(request) { [weak self] result in
            guard let self else { return }
            let events = self.update { state in
                guard state.generation == generation else { return false }
                state.loading = false
                // A failed read (bluetoothd exiting as it answers, an old BlueZ) is not worth a
                // message: the signals that follow still build the picture up.
                if case .success(let reply) = result, let objects = BluezSignalDecoding.managedObjects(reply.body) {
                    state.tree.replaceAll(with: objects)
                }
                return true
            }
            self.deliver(events)
            self.finishStartIfSettled()
        }
    }

    // MARK: Signals

    private func objectManagerSignal(_ signal: Message) {
        let events = update { state in
            guard state.accepts(signal) else { return false }
            switch signal.member {
            case "InterfacesAdded":
                guard let added = BluezSignalDecoding.interfacesAdded(signal.body) else { return false }
                state.tree.addInterfaces(added.interfaces, at: added.path)
            case "InterfacesRemoved":
                guard let removed = BluezSignalDecoding.interfacesRemoved(signal.body) else { return false }
                state.tree.removeInterfaces(removed.interfaces, at: removed.path)
            default:
                return false
            }
            return true
        }
        deliver(events)
    }

    private func propertiesSignal(_ signal: Message) {
        let events = update { state in
            guard state.accepts(signal), let path = signal.path,
                  let change = BluezSignalDecoding.propertiesChanged(signal.body) else { return false }
            state.tree.changeProperties(change.changed, invalidated: change.invalidated,
                                        interface: change.interface, at: path)
            return true
        }
        deliver(events)
    }

    // MARK: Routes

    /// Applies `change` to the state and, if it reports a change, recomputes the routes and
    /// returns the events that lead there.
    private func update(_ change: (inout State) -> Bool) -> [BluetoothRouteEvent] {
        state.withLock { state in
            guard state.isLive, change(&state) else { return [] }
            let routes = BluetoothRouteRules.routes(in: state.tree)
            let events = BluetoothRouteEvent.changes(from: state.routes, to: routes)
            state.routes = routes
            return events
        }
    }

    private func deliver(_ events: [BluetoothRouteEvent]) {
        for event in events { handler(event) }
    }
}
