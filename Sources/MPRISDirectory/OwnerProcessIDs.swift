import DBus
import Synchronization

/// The process id behind a unique bus name, from the bus itself
/// (`org.freedesktop.DBus.GetConnectionUnixProcessID`: the kernel's word, not the client's), asked
/// once per name and remembered while the name exists.
///
/// Asynchronous: the answer arrives on the connection's I/O thread, which never waits for it.
public final class OwnerProcessIDs: Sendable {
    private let connection: Connection
    private let known = Mutex<[String: Int32]>([:])

    public init(connection: Connection) {
        self.connection = connection
    }

    /// Calls `done` with the pid of `owner` (nil when the bus does not know it), at once if known.
    public func lookUp(_ owner: String, done: @escaping @Sendable (Int32?) -> Void) {
        if let pid = known.withLock({ $0[owner] }) { return done(pid) }
        let call = Message.methodCall(destination: BusDaemon.name, path: BusDaemon.path,
                                      interface: BusDaemon.interface, member: "GetConnectionUnixProcessID",
                                      body: [.string(owner)])
        connection.call(call, timeout: .seconds(5)) { [weak self] result in
            guard case .success(let reply) = result, case .uint32(let pid)? = reply.body.first,
                  pid > 0, pid <= UInt32(Int32.max) else { return done(nil) }
            self?.known.withLock { $0[owner] = Int32(pid) }
            done(Int32(pid))
        }
    }

    /// Forgets `owner` (it left the bus; a unique name never comes back).
    public func forget(_ owner: String) {
        known.withLock { $0[owner] = nil }
    }
}
