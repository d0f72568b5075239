import DBus
import MPRISDirectory
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
/// - On the session bus it takes the active player's properties, their changes and its `Seeked`
///   from the daemon's `PlayerDirectory`, so the registration is complete and stays current.
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

    let directory: PlayerDirectory
    /// The session bus (the directory's), where the commands go.
    let session: Connection
    let system: Connection
    let log: @Sendable (String) -> Void
    /// For what the user should act on (a running mpris-proxy).
    let warn: @Sendable (String) -> Void
    let state = Mutex(State())
    private let adapterFollower = Mutex<BluezMediaAdapters?>(nil)
    private let activeSubscription = Mutex<EventSubscription?>(nil)
    private let observation = Mutex<EventSubscription?>(nil)
    let ownerWatch = Mutex<SignalSubscription?>(nil)
    /// Refused callers' lines: a few per minute.
    let refusalLog = LogRateLimit()

    struct State {
        var stopped = false
        var active: ActivePlayer?
        /// Bumped on each change of the active player: answers about an older one are dropped.
        var generation: UInt64 = 0
        var properties = HeadsetPlayerProperties()
        /// The active player's properties have been read (the registration can be complete).
        var loaded = false
        /// The active player's changes told before it was loaded, newest value of each property
        /// (`load` applies them over what it reads).
        var pending = MPRISPropertyStore()
        /// The object exported for the active player, once its properties are in.
        var object: ExportedObject?
        var adapters: [ObjectPath] = []
        /// Adapters the current object was registered on (the call sent, not failed).
        var registered: Set<ObjectPath> = []
        /// bluetoothd's unique name: the only caller whose commands are taken.
        var bluez: String?
        /// The mpris-proxy processes already warned about.
        var warnedProxies: Set<Int32> = []
    }

    /// A headset player between `directory`'s players (on the session bus) and `system` (where
    /// bluetoothd is). Nothing happens until `start`.
    public init(directory: PlayerDirectory, system: Connection, log: @escaping @Sendable (String) -> Void,
                warn: (@Sendable (String) -> Void)? = nil) {
        self.directory = directory
        session = directory.connection
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
        let observed = directory.observe { [weak self] in self?.directoryEvent($0) }
        observation.withLock { $0 = observed }
        directory.start()
        let subscription = source { [weak self] player in self?.activeChanged(player) }
        activeSubscription.withLock { $0 = subscription }
        follower.start(completion: completion)
    }

    /// Withdraws the registration and stops following. Idempotent.
    public func stop() {
        activeSubscription.withLock { $0 }?.cancel()
        observation.withLock { $0 }?.cancel()
        adapterFollower.withLock { $0 }?.stop()
        ownerWatch.withLock { $0 }?.cancel()
        let (object, registered) = state.withLock { state in
            state.stopped = true
            state.generation &+= 1
            defer {
                state.object = nil
                state.registered = []
            }
            return (state.object, state.registered)
        }
        if let object { withdraw(object, from: registered) }
    }
}
