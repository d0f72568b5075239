import FoundationEssentials
import MPRISDirectory

/// Which player the media keys and the headset act on, and why: pure state, no I/O, fed with
/// what the players say (`appeared`, `statusChanged`, `vanished`) and what the user asks (`pin`,
/// `unpin`, `next`).
///
/// The choice (issue 16), in order:
/// 1. the player the user pinned (while its name exists);
/// 2. else the one playing — the most recently started if several;
/// 3. else the most recently active one still in its *audio context* (G-RC-CONTEXT): it played
///    and was paused since, by the user or by the policy (a call, a prompt, the lock), so the keys
///    resume it.
///
/// Never chosen: a stopped player (Stop leaves the context), one never seen playing (an idle
/// browser tab that says Paused — brave-browser#47772; a player found paused when the daemon
/// started counts as one), one whose audio-server streams have been gone for `goneLimit`
/// (PlayerRanking+Streams.swift), and one on the ignore list. Our own `mprisd play` players and foreign
/// players rank together: the ranking only sees MPRIS names.
public struct PlayerRanking: Sendable {
    /// One MPRIS name as the ranking sees it.
    public struct Entry: Sendable, Hashable {
        public let busName: String
        public let owner: String
        /// `Playing`, `Paused`, `Stopped`, as last said (anything else counts as Stopped).
        public fileprivate(set) var status: String
        /// It played and has not stopped since: it may be chosen.
        public internal(set) var inContext = false
        /// The order of its last start (higher: later); meaningful while playing.
        var startOrder: UInt64 = 0
        /// The order of its last moment of activity (a start or a pause).
        var activeOrder: UInt64 = 0
        /// When the current state began (playing since, paused at, stopped at).
        public internal(set) var since: Date?
        /// Who paused it, when it is paused in context: nil for the user.
        public fileprivate(set) var pausedBy: String?
        /// Its audio-server streams (PlayerRanking+Streams.swift).
        public internal(set) var streams = StreamWatch()

        var isPlaying: Bool { status == "Playing" }
    }

    /// Why a player cannot be pinned.
    public enum PinError: Error, Sendable, Equatable, CustomStringConvertible {
        case unknown(String)
        case ignored(String, rule: String)
        case noPlayers
        /// Players exist, but none has played and not stopped since.
        case noPlayerInContext

        public var description: String {
            switch self {
            case .unknown(let name): "no player named \(name)"
            case .ignored(let name, let rule) where PlayerIgnoreList.proxies.contains(rule):
                "\(name) is a proxy of other players, never chosen itself"
            case .ignored(let name, let rule): "\(name) is ignored (rule '\(rule)' in daemon.ignore-players)"
            case .noPlayers: "no players to choose from"
            case .noPlayerInContext: "no player to choose from: none is playing or paused after playing"
            }
        }
    }

    public internal(set) var entries: [String: Entry] = [:]
    /// The bus name the user pinned, while it exists.
    public private(set) var pinned: String?
    public private(set) var pinnedAt: Date?
    public let ignore: PlayerIgnoreList
    /// How long a player's streams may be gone before it leaves its audio context
    /// (`streamsGoneLimit` unless a test says otherwise).
    public let goneLimit: TimeInterval
    var order: UInt64 = 0

    public init(ignore: PlayerIgnoreList = PlayerIgnoreList(), streamsGoneLimit: TimeInterval = PlayerRanking.streamsGoneLimit) {
        self.ignore = ignore
        goneLimit = streamsGoneLimit
    }

    // MARK: What the players say

    /// `busName` is now owned by `owner` with `status` (its first read; nil: unknown yet). A new
    /// owner is a new player: nothing of the old one carries over.
    public mutating func appeared(_ busName: String, owner: String, status: String?, at now: Date) {
        if let current = entries[busName], current.owner == owner {
            if let status { statusChanged(busName, status: status, at: now) }
            return
        }
        if pinned == busName { unpin() }
        entries[busName] = Entry(busName: busName, owner: owner, status: "Stopped", since: now)
        if let status { statusChanged(busName, status: status, at: now) }
    }

    /// The player said `status`. `pausedBy` names the policy's cause of a pause (nil: the user).
    /// Only a change counts: a second `Paused` keeps the first one's cause and time.
    public mutating func statusChanged(_ busName: String, status: String, pausedBy: String? = nil, at now: Date) {
        guard var entry = entries[busName] else { return }
        let status = ["Playing", "Paused"].contains(status) ? status : "Stopped"
        guard status != entry.status else { return }
        let wasPlaying = entry.isPlaying
        entry.status = status
        entry.since = now
        entry.pausedBy = nil
        switch status {
        case "Playing":
            order += 1
            entry.inContext = true
            entry.startOrder = order
            entry.activeOrder = order
            entry.streams.started()
        case "Paused":
            // Paused after playing stays in its context; paused from Stopped (a track loaded)
            // never entered one.
            if wasPlaying {
                order += 1
                entry.activeOrder = order
                entry.pausedBy = pausedBy
            }
        default:
            entry.inContext = false
            entry.streams.left = nil  // a stop says why by itself
        }
        entries[busName] = entry
    }

    /// The name has no owner any more (the player quit or crashed): it is forgotten, and a pin
    /// on it ends.
    public mutating func vanished(_ busName: String) {
        entries[busName] = nil
        if pinned == busName { unpin() }
    }

    // MARK: What the user asks

    /// Makes `busName` the active player whatever the others do, until `unpin` or until its name
    /// goes away. `busName` may be the short name (`mpv` for `org.mpris.MediaPlayer2.mpv`).
    @discardableResult
    public mutating func pin(_ name: String, at now: Date) throws(PinError) -> ActivePlayer {
        guard let entry = entries[name] ?? entries[PlayerIgnoreList.prefix + name] else { throw .unknown(name) }
        if let rule = ignore.rule(ignoring: entry.busName) { throw .ignored(entry.busName, rule: rule) }
        pinned = entry.busName
        pinnedAt = now
        return ActivePlayer(busName: entry.busName, owner: entry.owner)
    }

    public mutating func unpin() {
        pinned = nil
        pinnedAt = nil
    }

    /// Pins the player after the active one (as playerctld's `shift`): the players that may be
    /// chosen — in an audio context and not ignored — in the order they rank without a pin,
    /// round and round. A player never seen playing, or stopped, is skipped: pinning it would
    /// hand the keys to a player that then starts on a Play meant for another.
    @discardableResult
    public mutating func next(at now: Date) throws(PinError) -> ActivePlayer {
        let cycle = ranked
        guard !cycle.isEmpty else { throw entries.isEmpty ? .noPlayers : .noPlayerInContext }
        let current = active?.busName
        let index = current.flatMap { name in cycle.firstIndex { $0.busName == name } }
        let chosen = index.map { cycle[($0 + 1) % cycle.count] } ?? cycle[0]
        return try pin(chosen.busName, at: now)
    }

    // MARK: The choice

    /// The player the keys act on now; nil when no player is in an audio context.
    public var active: ActivePlayer? {
        if let pinned, let entry = entries[pinned] { return ActivePlayer(busName: entry.busName, owner: entry.owner) }
        return ranked.first.map { ActivePlayer(busName: $0.busName, owner: $0.owner) }
    }

    /// The players that may be chosen, best first (the pin left out): playing ones by latest
    /// start, then paused ones in context by latest activity.
    public var ranked: [Entry] {
        entries.values.filter { $0.inContext && ignore.rule(ignoring: $0.busName) == nil }.sorted { a, b in
            if a.isPlaying != b.isPlaying { return a.isPlaying }
            if a.isPlaying { return a.startOrder > b.startOrder }
            return a.activeOrder > b.activeOrder
        }
    }

}
