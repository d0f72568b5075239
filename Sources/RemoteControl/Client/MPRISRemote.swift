import DBus

/// Another program's MPRIS player as a client commands it: addressed by its unique bus name (a
/// call never reaches whoever takes the well-known name over in between), asynchronous (the
/// answer comes on the connection's I/O thread, which never waits for it).
///
/// The one home of the faithful pause: `pauseIfPlaying` asks `PlaybackStatus` afresh — the last
/// signal may be a batch old (mpv-mpris sends every 100 ms) — and sends `Pause` only to a player
/// that says `Playing`, so a player whose Pause toggles (tidal-hifi#800) is never started by it,
/// and one that another actor paused a moment ago is not paused a second time.
public struct MPRISRemote: Sendable {
    public let connection: Connection
    /// The player's unique name.
    public let owner: String
    public let timeout: Duration

    public init(connection: Connection, owner: String, timeout: Duration = .seconds(5)) {
        self.connection = connection
        self.owner = owner
        self.timeout = timeout
    }

    /// `Properties.Get` of one property of the Player interface, unwrapped from its variant.
    public func property(_ name: String, done: @escaping @Sendable (Result<DBusValue, DBusError>) -> Void) {
        let get = Message.methodCall(destination: owner, path: MPRISNames.objectPath,
                                     interface: StandardInterfaceName.properties, member: "Get",
                                     body: [.string(MPRISNames.playerInterface), .string(name)])
        connection.call(get, timeout: timeout) { result in
            switch result {
            case .success(let message):
                guard case .variant(let value)? = message.body.first else {
                    return done(.failure(.failed("the player answered Get \(name) with '\(message.signature.code)'")))
                }
                done(.success(value))
            case .failure(let error): done(.failure(error))
            }
        }
    }

    /// Calls `member` of the Player interface (or of `interface`); `done` gets the player's answer.
    public func call(_ member: String, _ body: [DBusValue] = [], interface: String = MPRISNames.playerInterface,
                     done: @escaping @Sendable (Result<Void, DBusError>) -> Void = { _ in }) {
        let call = Message.methodCall(destination: owner, path: MPRISNames.objectPath, interface: interface,
                                      member: member, body: body)
        connection.call(call, timeout: timeout) { result in done(result.map { _ in () }) }
    }

    /// What `pauseIfPlaying` did.
    public enum PauseOutcome: Sendable, Equatable {
        /// `Pause` sent, and the player answered it.
        case sent
        /// Not sent: the player says it is not playing (its `PlaybackStatus`).
        case notPlaying(String)
        /// Not sent, or not answered: its status could not be read, or the Pause failed.
        case failed(DBusError)
    }

    /// `Pause`, only if the player says `Playing` when asked now.
    public func pauseIfPlaying(done: @escaping @Sendable (PauseOutcome) -> Void) {
        property("PlaybackStatus") { result in
            switch result {
            case .success(.string("Playing")):
                call("Pause") { sent in
                    switch sent {
                    case .success: done(.sent)
                    case .failure(let error): done(.failed(error))
                    }
                }
            case .success(.string(let status)): done(.notPlaying(status))
            case .success: done(.notPlaying("not playing"))
            case .failure(let error): done(.failed(error))
            }
        }
    }
}
