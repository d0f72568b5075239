import DBus
import RemoteControl

/// The MPRIS players on the bus now: `ListNames`, then `GetNameOwner` of each
/// `org.mpris.MediaPlayer2.*` name. The directory subscribes to `NameOwnerChanged` first, so a
/// player that appears or goes meanwhile is not missed; a name gone again before its owner is
/// asked is simply not reported (its signal said so).
enum PlayerNameListing {
    /// Calls `found(name, owner)` for every player name, on the connection's I/O thread;
    /// `completion` once `ListNames` is answered (the owners may still come after it).
    static func list(on connection: Connection, timeout: Duration,
                     found: @escaping @Sendable (_ name: String, _ owner: String) -> Void,
                     completion: @escaping @Sendable (Result<Void, DBusError>) -> Void) {
        let request = Message.methodCall(destination: BusDaemon.name, path: BusDaemon.path,
                                         interface: BusDaemon.interface, member: "ListNames")
        connection.call(request, timeout: timeout) { result in
            switch result {
            case .success(let reply):
                for name in strings(reply.body.first) where MPRISNames.isPlayerName(name) {
                    lookUpOwner(of: name, on: connection, timeout: timeout, found: found)
                }
                completion(.success(()))
            case .failure(let error):
                completion(.failure(error))
            }
        }
    }

    private static func lookUpOwner(of name: String, on connection: Connection, timeout: Duration,
                                    found: @escaping @Sendable (String, String) -> Void) {
        let request = Message.methodCall(destination: BusDaemon.name, path: BusDaemon.path,
                                         interface: BusDaemon.interface, member: "GetNameOwner",
                                         body: [.string(name)])
        connection.call(request, timeout: timeout) { result in
            guard case .success(let reply) = result, case .string(let owner)? = reply.body.first,
                  !owner.isEmpty else { return }
            found(name, owner)
        }
    }

    /// The strings of an `as` (ListNames' answer); anything else gives none.
    static func strings(_ value: DBusValue?) -> [String] {
        guard case .array(.string, let elements)? = value else { return [] }
        return elements.compactMap { if case .string(let text) = $0 { text } else { nil } }
    }
}
