import DBus

/// Follows the Bluetooth adapters where a media player can be registered: the objects of
/// bluetoothd that have both `org.bluez.Adapter1` and `org.bluez.Media1` (bluetoothd puts
/// `Media1` on every adapter it runs the media profiles on).
///
/// Built on the same `SystemServiceFollower` as `BluetoothMonitor`, so it follows bluetoothd's
/// name, its restarts and the ObjectManager signals the same way, on the connection's I/O thread,
/// with no timer and no polling. `handler` gets the adapters after every change that may concern
/// them, in order:
/// - `[]` when bluetoothd goes (whatever was registered with it is gone with it);
/// - the adapters read from a new bluetoothd once its objects are in;
/// - the adapters again after each `InterfacesAdded`/`InterfacesRemoved` (an adapter plugged or
///   unplugged, or `Media1` re-announced), even when the list did not change: a registration that
///   failed can be tried again then.
public final class BluezMediaAdapters: Sendable {
    /// Receives the current adapters (sorted), on the connection's I/O thread.
    public typealias Handler = @Sendable ([ObjectPath]) -> Void

    private let handler: Handler
    private let follower: SystemServiceFollower<BluezObjectTree, Result<Message, DBusError>, [ObjectPath]>

    /// A follower on `connection`, a system bus connection. Nothing happens until `start`.
    public init(connection: Connection, handler: @escaping Handler) {
        self.handler = handler
        follower = SystemServiceFollower(
            connection: connection, busName: BluezNames.busName, name: "the Bluetooth adapter follower",
            tracked: BluezObjectTree(),
            forget: { tree in
                tree.removeAll()
                return []
            },
            read: { owner, done in
                connection.call(Message.methodCall(destination: owner, path: BluezNames.objectManagerPath,
                                                   interface: StandardInterfaceName.objectManager,
                                                   member: "GetManagedObjects"), completion: done)
            },
            take: { reply, tree in
                // A failed read (bluetoothd exiting as it answers) shows no adapter; the signals
                // that follow still bring them.
                if case .success(let reply) = reply, let objects = BluezSignalDecoding.managedObjects(reply.body) {
                    tree.replaceAll(with: objects)
                }
                return Self.adapters(in: tree)
            },
            report: handler)
    }

    deinit {
        stop()
    }

    /// The adapters known now.
    public var adapters: [ObjectPath] {
        follower.withTracked { Self.adapters(in: $0) }
    }

    /// Subscribes to bluetoothd's ObjectManager signals and starts following `org.bluez`;
    /// `completion` runs once the adapters that exist now have been reported. Fails only when the
    /// bus refuses, never because bluetoothd is absent.
    public func start(completion: @escaping @Sendable (Result<Void, DBusError>) -> Void) {
        follower.start(signals: [
            (MatchRule(sender: BluezNames.busName, interface: StandardInterfaceName.objectManager,
                       path: BluezNames.objectManagerPath),
             { @Sendable [weak self] in self?.objectManagerSignal($0) }),
        ], completion: completion)
    }

    /// Stops following, without reporting.
    public func stop() {
        follower.stop()
    }

    private func objectManagerSignal(_ signal: Message) {
        let adapters = follower.fromOwner(signal) { tree, loading -> [ObjectPath]? in
            guard !loading else { return nil }
            switch signal.member {
            case "InterfacesAdded":
                guard let added = BluezSignalDecoding.interfacesAdded(signal.body) else { return nil }
                tree.addInterfaces(added.interfaces, at: added.path)
            case "InterfacesRemoved":
                guard let removed = BluezSignalDecoding.interfacesRemoved(signal.body) else { return nil }
                tree.removeInterfaces(removed.interfaces, at: removed.path)
            default:
                return nil
            }
            return Self.adapters(in: tree)
        } ?? nil
        if let adapters { handler(adapters) }
    }

    /// The objects that are an adapter with `Media1`, sorted.
    static func adapters(in tree: BluezObjectTree) -> [ObjectPath] {
        tree.objects(with: BluezNames.mediaInterface)
            .map(\.path)
            .filter { tree.properties(of: BluezNames.adapterInterface, at: $0) != nil }
            .sorted { $0.rawValue < $1.rawValue }
    }
}
