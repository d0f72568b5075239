import DBus

/// The logind session whose `LockedHint` says whether the user's screen is locked, as found by
/// `LogindSessionLookup`.
struct LogindSession: Equatable, Sendable {
    /// How the session was found; only a session that is not the user's display is looked for
    /// again when a new session appears.
    enum Source: Equatable, Sendable {
        /// The user's `Display` property: the graphical session logind elected.
        case display
        /// `XDG_SESSION_ID` of the daemon's environment.
        case environment
        /// Some session of the user from `ListSessions` (one with a seat preferred).
        case anySession
    }

    var path: ObjectPath
    var source: Source
    var locked: Bool
}

/// Finds the user's graphical session in logind and reads its `LockedHint`, with callbacks only.
///
/// The daemon runs as a systemd *user* service, outside any login session, so asking logind for
/// the session of its own pid (`GetSessionByPID`) fails. Instead, in order:
/// 1. `Manager.GetUser(uid)`, then that user's `Display` `(so)`: the session logind elected as
///    the user's graphical one;
/// 2. `Manager.GetSession($XDG_SESSION_ID)` when the environment names a session;
/// 3. `Manager.ListSessions`, the first session of the user (one on a seat first).
///
/// A candidate counts only once its `LockedHint` could be read; any failure moves on to the next
/// step, and when all fail there is no session (not locked). Nothing is logged: logind missing or
/// refusing is ordinary on containers and minimal systems. Calls go to logind's unique name, so a
/// logind that restarts halfway never answers for its predecessor.
struct LogindSessionLookup: Sendable {
    /// The user object (nil if logind does not know the user) and the session found (nil: none).
    struct Result: Equatable, Sendable {
        var user: ObjectPath?
        var session: LogindSession?
    }

    let connection: Connection
    /// logind's unique name.
    let owner: String
    let uid: UInt32
    /// `XDG_SESSION_ID`, if set.
    let sessionID: String?

    func run(completion: @escaping @Sendable (Result) -> Void) {
        call(LogindNames.managerPath, LogindNames.managerInterface, "GetUser", [.uint32(uid)]) { body in
            guard let user = body.flatMap(LogindDecoding.objectPath) else {
                return fromEnvironment(user: nil, completion: completion)
            }
            property(user, LogindNames.userInterface, LogindNames.display) { value in
                guard let display = value.flatMap(LogindDecoding.displaySession) else {
                    return fromEnvironment(user: user, completion: completion)
                }
                readLocked(display, source: .display) { session in
                    if let session { return completion(Result(user: user, session: session)) }
                    fromEnvironment(user: user, completion: completion)
                }
            }
        }
    }

    // MARK: Fallbacks

    private func fromEnvironment(user: ObjectPath?, completion: @escaping @Sendable (Result) -> Void) {
        guard let sessionID, !sessionID.isEmpty else { return fromList(user: user, completion: completion) }
        call(LogindNames.managerPath, LogindNames.managerInterface, "GetSession", [.string(sessionID)]) { body in
            guard let path = body.flatMap(LogindDecoding.objectPath) else {
                return fromList(user: user, completion: completion)
            }
            readLocked(path, source: .environment) { session in
                if let session { return completion(Result(user: user, session: session)) }
                fromList(user: user, completion: completion)
            }
        }
    }

    private func fromList(user: ObjectPath?, completion: @escaping @Sendable (Result) -> Void) {
        call(LogindNames.managerPath, LogindNames.managerInterface, "ListSessions", []) { [uid] body in
            let mine = (body.flatMap(LogindDecoding.sessions) ?? []).filter { $0.uid == uid }
            // A session on a seat is a local one (graphical or a VT); a remote shell has no seat.
            guard let row = mine.first(where: { !$0.seat.isEmpty }) ?? mine.first else {
                return completion(Result(user: user, session: nil))
            }
            readLocked(row.path, source: .anySession) { session in
                completion(Result(user: user, session: session))
            }
        }
    }

    // MARK: Plumbing

    /// `LockedHint` of `path`; nil when it cannot be read (no such session, not a boolean).
    private func readLocked(_ path: ObjectPath, source: LogindSession.Source,
                            completion: @escaping @Sendable (LogindSession?) -> Void) {
        property(path, LogindNames.sessionInterface, LogindNames.lockedHint) { value in
            guard let locked = LogindDecoding.bool(value) else { return completion(nil) }
            completion(LogindSession(path: path, source: source, locked: locked))
        }
    }

    /// `Properties.Get`; the value, or nil on any error.
    private func property(_ path: ObjectPath, _ interface: String, _ name: String,
                          completion: @escaping @Sendable (DBusValue?) -> Void) {
        call(path, StandardInterfaceName.properties, "Get", [.string(interface), .string(name)]) { body in
            completion(body.flatMap(LogindDecoding.propertyValue))
        }
    }

    /// A call to logind; the reply's body, or nil on any error.
    private func call(_ path: ObjectPath, _ interface: String, _ member: String, _ arguments: [DBusValue],
                      completion: @escaping @Sendable ([DBusValue]?) -> Void) {
        let message = Message.methodCall(destination: owner, path: path, interface: interface, member: member,
                                         body: arguments)
        connection.call(message) { result in
            completion(try? result.get().body)
        }
    }
}
