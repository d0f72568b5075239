import SessionCore
import Synchronization

/// Every session the daemon puts in its engine, in one place (issue 23): our clients' sessions
/// (`PolicyService`), the stand-ins of MPRIS players (`ForeignPlayerTracker`) and the implicit
/// sessions of apps without our API (`StreamPolicy+ImplicitSessions`). Each is entered with its
/// number — one numbering, so the log, `mprisd status` and its JSON never give two sessions the
/// same one — its label and its owner when it is made, and leaves when it goes.
///
/// Everyone who must name a session or its owner asks here: the tracker, which says who paused
/// a player and what the journal keeps of that pause, and the arbiter, which tells `mprisd
/// players` who paused one. Before, each asked a chain of the three owners through closures.
///
/// Thread-safe: one lock, held only to read or change the table.
public final class SessionDirectory: Sendable {
    /// Whose session it is.
    public enum Kind: Sendable, Hashable {
        /// A client of `org.mprisd.AudioPolicy1` (`mprisd run`, `mprisd play`, an app).
        case client
        /// The stand-in of the MPRIS player with this bus name.
        case player(busName: String)
        /// An app's implicit session, made from its streams; no bus name owns it.
        case implicit
    }

    public struct Entry: Sendable, Hashable {
        public var id: SessionID
        public var number: UInt64
        /// How the log and `mprisd players` name it: `session 3 (call, :1.42)`, a player's bus
        /// name, `ZOOM VoiceEngine (pid 4242)`.
        public var label: String
        /// The unique bus name that owns it (a client, a player); nil for an implicit session.
        public var owner: String?
        public var kind: Kind

        public init(id: SessionID, number: UInt64, label: String, owner: String?, kind: Kind) {
            self.id = id
            self.number = number
            self.label = label
            self.owner = owner
            self.kind = kind
        }
    }

    private struct State {
        var lastNumber: UInt64 = 0
        var entries: [SessionID: Entry] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    /// The next number of the daemon's one numbering (taken before the session is entered: a
    /// registration may still fail, and a number is never given twice).
    public func nextNumber() -> UInt64 {
        state.withLock { state in
            state.lastNumber += 1
            return state.lastNumber
        }
    }

    /// Enters a session that was made (again: replaces what was said of it).
    public func add(_ entry: Entry) {
        state.withLock { $0.entries[entry.id] = entry }
    }

    /// The session `id` went.
    public func remove(_ id: SessionID) {
        _ = state.withLock { $0.entries.removeValue(forKey: id) }
    }

    public func entry(_ id: SessionID) -> Entry? {
        state.withLock { $0.entries[id] }
    }

    public func label(of id: SessionID) -> String? {
        entry(id)?.label
    }

    /// The session standing for the player `busName`, while it has one.
    public func session(ofPlayer busName: String) -> SessionID? {
        state.withLock { state in state.entries.values.first { $0.kind == .player(busName: busName) }?.id }
    }

    /// The sessions of our clients that `owner` registered, oldest first.
    public func clientSessions(ownedBy owner: String) -> [SessionID] {
        state.withLock { state in
            state.entries.values.filter { $0.kind == .client && $0.owner == owner }.sorted { $0.number < $1.number }.map(\.id)
        }
    }

    /// Every session now, by number (for tests and diagnostics).
    public var entries: [Entry] {
        state.withLock { state in state.entries.values.sorted { $0.number < $1.number } }
    }
}
