import CDBus
import Synchronization

/// A connection to a message bus.
///
/// Safe to use from any thread or task. All libdbus work happens on the connection's own I/O
/// thread (see `EventLoop`); methods here marshal on the caller's thread, so a value that cannot be
/// sent is a thrown error at the call site, and then hand the message to that thread.
///
/// The connection lives until `close()` or until the bus goes away (a `.disconnected` event; the
/// process never exits because of it). Dropping the last reference closes it too.
public final class Connection: Sendable {
    public enum Bus: Sendable {
        case session, system
    }

    let core: ConnectionCore
    let exportedPaths = Mutex<Set<ObjectPath>>([])
    let nextSubscription = Atomic<UInt64>(0)

    /// Connects to the session or system bus (`DBUS_SESSION_BUS_ADDRESS`,
    /// `DBUS_SYSTEM_BUS_ADDRESS` or their defaults) and registers with it.
    public init(bus: Bus) throws(DBusError) {
        core = try ConnectionCore(target: .bus(bus == .session ? DBUS_BUS_SESSION : DBUS_BUS_SYSTEM),
                                  threadName: bus == .session ? "dbus-session" : "dbus-system")
    }

    /// Connects to the bus at `address` (`unix:path=…`) and registers with it.
    public init(address: String) throws(DBusError) {
        core = try ConnectionCore(target: .address(address), threadName: "dbus-conn")
    }

    deinit {
        close()
    }

    /// The unique name the bus gave this connection (`:1.42`).
    public var uniqueName: String { core.uniqueName }

    /// Closes the connection. Outstanding calls fail with `Disconnected`; streams finish.
    public func close() {
        let core = self.core
        core.loop.execute { core.close() }
    }

    /// Events of the connection (names acquired and lost, disconnection), as a stream.
    public func events() -> AsyncStream<ConnectionEvent> {
        core.events.stream()
    }

    /// Calls `handler` on the connection's I/O thread for every event; it must not block.
    /// Returns a token for `removeEventHandler`.
    @discardableResult
    public func onEvent(_ handler: @escaping @Sendable (ConnectionEvent) -> Void) -> UInt64 {
        core.events.add(handler)
    }

    public func removeEventHandler(_ token: UInt64) {
        core.events.remove(token)
    }

    /// Runs `job` on the connection's I/O thread; false if the connection is closed.
    @discardableResult
    func onLoop(_ job: @escaping @Sendable (ConnectionCore) -> Void) -> Bool {
        let core = self.core
        return core.loop.execute { job(core) }
    }
}
