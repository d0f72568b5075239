import DBus
import RemoteControl
import SessionCore
import Synchronization
import SystemContext

/// The one player the headset controls: the active player, registered with BlueZ on every
/// adapter with `org.bluez.Media1.RegisterPlayer`, as mpris-proxy does for every player at once
/// (so the headset controls whichever registered first: bluez#709, bluez#1980).
///
/// - On the system bus it exports, per active player, an object implementing
///   `org.mpris.MediaPlayer2.Player` (`HeadsetPlayer+Object`): bluetoothd reads the properties
///   given at registration, follows that object's `PropertiesChanged` and `Seeked`, and turns the
///   headset's AVRCP commands into calls of its methods (PLAY → `Play`, PAUSE → `Pause`, STOP →
///   `Stop`, FORWARD → `Next`, BACKWARD → `Previous`), which are forwarded to the active player on
///   the session bus (`HeadsetPlayer+Commands`).
/// - On the session bus it follows the active player's properties (`GetAll`, then its
///   `PropertiesChanged` and `Seeked`), so the registration is complete and stays current.
/// - When the active player changes, the old registration is withdrawn (`UnregisterPlayer`) and
///   the new player registered once its properties are read; with no active player nothing is
///   registered. Adapters are followed through bluetoothd's ObjectManager (`BluezMediaAdapters`):
///   a new adapter, or bluetoothd coming back, gets the registration again.
///
/// Everything runs on the two connections' I/O threads, driven by their messages and by the
/// active-player source: no timer, no polling.
public final class HeadsetPlayer: Sendable {
    /// Something that calls its handler with the active player at once, then on every change (on
    /// any thread), until the returned subscription is cancelled: `PlayerArbiter.onActiveChange`.
    public typealias ActivePlayerSource = (@escaping @Sendable (ActivePlayer?) -> Void) -> EventSubscription

    let session: Connection
    let system: Connection
    let log: @Sendable (String) -> Void
    /// For what the user should act on (a running mpris-proxy).
    let warn: @Sendable (String) -> Void
    let state = Mutex(State())
    private let adapterFollower = Mutex<BluezMediaAdapters?>(nil)
    private let activeSubscription = Mutex<EventSubscription?>(nil)
    private let ownerWatch = Mutex<SignalSubscription?>(nil)

    struct State {
        var stopped = false
        var active: ActivePlayer?
        /// Bumped on each change of the active player: answers about an older one are dropped.
        var generation: UInt64 = 0
        var properties = HeadsetPlayerProperties()
        /// The active player's properties have been read (the registration can be complete).
        var loaded = false
        /// The object exported for the active player, once its properties are in.
        var object: ExportedObject?
        var signals: [SignalSubscription] = []
        var adapters: [ObjectPath] = []
        /// Adapters the current object was registered on (the call sent, not failed).
        var registered: Set<ObjectPath> = []
        /// bluetoothd's unique name: the only caller whose commands are taken.
        var bluez: String?
        /// The mpris-proxy processes already warned about.
        var warnedProxies: Set<Int32> = []
    }

    /// A headset player between `session` (where the players are) and `system` (where
    /// bluetoothd is). Nothing happens until `start`.
    public init(session: Connection, system: Connection, log: @escaping @Sendable (String) -> Void,
                warn: (@Sendable (String) -> Void)? = nil) {
        self.session = session
        self.system = system
        self.log = log
        self.warn = warn ?? log
    }

    deinit {
        stop()
    }

    /// Follows `source`'s active player and bluetoothd's adapters. `completion` runs once the
    /// adapters that exist now are known (see `BluezMediaAdapters.start`); the registration
    /// happens whenever both a player (its properties read) and an adapter are there.
    public func start(activePlayer source: ActivePlayerSource,
                      completion: @escaping @Sendable (Result<Void, DBusError>) -> Void = { _ in }) {
        let follower = BluezMediaAdapters(connection: system) { [weak self] adapters in
            self?.adaptersChanged(adapters)
        }
        adapterFollower.withLock { $0 = follower }
        watchBluezOwner()
        let subscription = source { [weak self] player in self?.activeChanged(player) }
        activeSubscription.withLock { $0 = subscription }
        follower.start(completion: completion)
    }

    /// Withdraws the registration and stops following. Idempotent.
    public func stop() {
        activeSubscription.withLock { $0 }?.cancel()
        adapterFollower.withLock { $0 }?.stop()
        ownerWatch.withLock { $0 }?.cancel()
        let (object, registered, signals) = state.withLock { state in
            state.stopped = true
            state.generation &+= 1
            defer {
                state.object = nil
                state.registered = []
                state.signals = []
            }
            return (state.object, state.registered, state.signals)
        }
        for subscription in signals { subscription.cancel() }
        if let object { withdraw(object, from: registered) }
    }

    // MARK: The active player

    /// A new active player (or none): the old registration goes, the new player is read.
    func activeChanged(_ player: ActivePlayer?) {
        let change = state.withLock { state -> (old: ExportedObject?, registered: Set<ObjectPath>,
                                                signals: [SignalSubscription], generation: UInt64)? in
            guard !state.stopped, state.active != player else { return nil }
            defer {
                state.active = player
                state.generation &+= 1
                state.properties = HeadsetPlayerProperties()
                state.loaded = false
                state.object = nil
                state.registered = []
                state.signals = []
            }
            return (state.object, state.registered, state.signals, state.generation &+ 1)
        }
        guard let change else { return }
        for subscription in change.signals { subscription.cancel() }
        if let old = change.old { withdraw(old, from: change.registered) }
        if let player {
            log("headset: the active player is now \(player.busName) (\(player.owner))")
            follow(player, generation: change.generation)
        } else if change.old != nil {
            log("headset: no active player; nothing registered with BlueZ")
        }
    }

    /// Subscribes to `player`'s signals, then reads its properties; the registration follows.
    private func follow(_ player: ActivePlayer, generation: UInt64) {
        let properties = MatchRule(sender: player.owner, interface: StandardInterfaceName.properties,
                                   member: "PropertiesChanged", path: MPRISNames.objectPath)
        let seeked = MatchRule(sender: player.owner, interface: MPRISNames.playerInterface, member: "Seeked",
                               path: MPRISNames.objectPath)
        session.subscribe(properties, { [weak self] in self?.playerPropertiesChanged($0, generation: generation) }) {
            [weak self] result in
            guard let self else { return }
            guard case .success(let first) = result, self.keep(first, generation: generation) else { return }
            self.session.subscribe(seeked, { [weak self] in self?.playerSeeked($0, generation: generation) }) {
                [weak self] result in
                guard let self else { return }
                guard case .success(let second) = result, self.keep(second, generation: generation) else { return }
                self.readProperties(of: player, generation: generation)
            }
        }
    }

    /// Keeps a subscription of the current player; cancels it (false) if the player changed.
    private func keep(_ subscription: SignalSubscription, generation: UInt64) -> Bool {
        let kept = state.withLock { state -> Bool in
            guard !state.stopped, state.generation == generation else { return false }
            state.signals.append(subscription)
            return true
        }
        if !kept { subscription.cancel() }
        return kept
    }

    private func readProperties(of player: ActivePlayer, generation: UInt64) {
        let call = Message.methodCall(destination: player.owner, path: MPRISNames.objectPath,
                                      interface: StandardInterfaceName.properties, member: "GetAll",
                                      body: [.string(MPRISNames.playerInterface)])
        session.call(call, timeout: .seconds(5)) { [weak self] reply in
            guard let self else { return }
            if case .failure(let error) = reply {
                self.log("headset: cannot read \(player.busName): \(error.message); registered with defaults")
            }
            let object = self.state.withLock { state -> Bool in
                guard !state.stopped, state.generation == generation else { return false }
                if case .success(let message) = reply, let all = message.body.first { state.properties.merge(all) }
                state.loaded = true
                return true
            }
            guard object else { return }
            self.exportObject(for: player, generation: generation)
            self.register()
        }
    }

    private func playerPropertiesChanged(_ signal: Message, generation: UInt64) {
        guard signal.body.count >= 2, case .string(MPRISNames.playerInterface) = signal.body[0] else { return }
        let (object, names) = state.withLock { state -> (ExportedObject?, [String]) in
            guard !state.stopped, state.generation == generation else { return (nil, []) }
            return (state.object, state.properties.merge(signal.body[1]))
        }
        // Before the object exists the change is kept for the registration; after, announced.
        if let object, !names.isEmpty { object.propertiesChanged(MPRISNames.playerInterface, names) }
    }

    private func playerSeeked(_ signal: Message, generation: UInt64) {
        guard case .int64(let position)? = signal.body.first else { return }
        let object = state.withLock { state -> ExportedObject? in
            guard !state.stopped, state.generation == generation else { return nil }
            state.properties.merge(.dictionary(key: .string, value: .variant,
                                               [DictionaryEntry(.string("Position"), .variant(.int64(position)))]))
            return state.object
        }
        try? object?.emit(MPRISNames.playerInterface, "Seeked", [.int64(position)])
    }

    // MARK: Adapters and registration

    private func adaptersChanged(_ adapters: [ObjectPath]) {
        state.withLock { state in
            state.adapters = adapters
            // A registration on an adapter that went is gone with it.
            state.registered.formIntersection(adapters)
        }
        register()
    }

    /// Registers the current object on every adapter it is not registered on yet.
    func register() {
        let work = state.withLock { state -> (ExportedObject, DBusValue, [ObjectPath], UInt64)? in
            guard !state.stopped, state.loaded, let object = state.object else { return nil }
            let missing = state.adapters.filter { !state.registered.contains($0) }
            guard !missing.isEmpty else { return nil }
            state.registered.formUnion(missing)
            return (object, state.properties.registration, missing, state.generation)
        }
        guard let (object, properties, adapters, generation) = work else { return }
        warnAboutMPRISProxy()
        for adapter in adapters {
            let call = Message.methodCall(destination: BluezMediaNames.busName, path: adapter, interface: BluezMediaNames.media,
                                          member: "RegisterPlayer", body: [.objectPath(object.path), properties])
            system.call(call, timeout: .seconds(10)) { [weak self] reply in
                guard let self else { return }
                switch reply {
                case .success:
                    self.log("headset: registered \(object.path) on \(adapter)")
                case .failure(let error):
                    self.log("headset: RegisterPlayer on \(adapter) failed: \(error.message)")
                    self.state.withLock { state in
                        if state.generation == generation { state.registered.remove(adapter) }
                    }
                }
            }
        }
    }

    /// Unregisters `object` from `adapters` and stops answering for it.
    private func withdraw(_ object: ExportedObject, from adapters: Set<ObjectPath>) {
        for adapter in adapters.sorted(by: { $0.rawValue < $1.rawValue }) {
            let call = Message.methodCall(destination: BluezMediaNames.busName, path: adapter, interface: BluezMediaNames.media,
                                          member: "UnregisterPlayer", body: [.objectPath(object.path)])
            system.call(call, timeout: .seconds(10)) { [log] reply in
                if case .failure(let error) = reply {
                    log("headset: UnregisterPlayer on \(adapter) failed: \(error.message)")
                } else {
                    log("headset: unregistered \(object.path) from \(adapter)")
                }
            }
        }
        object.unexport()
    }

    /// Follows `org.bluez`'s owner, the only sender whose commands the object takes.
    private func watchBluezOwner() {
        system.watchNameOwner(BluezMediaNames.busName, { [weak self] owner in
            self?.state.withLock { $0.bluez = owner }
        }, completion: { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let subscription):
                let stopped = self.state.withLock { $0.stopped }
                if stopped { subscription.cancel() } else { self.ownerWatch.withLock { $0 = subscription } }
            case .failure(let error): self.log("headset: bluetoothd not followed: \(error.message)")
            }
        })
    }
}

/// The names of BlueZ's media API, as this part uses them.
enum BluezMediaNames {
    static let busName = "org.bluez"
    static let media = "org.bluez.Media1"
}
