import AudioServer
import MPRISDirectory
import Synchronization

/// The players of the directory joined with their streams on the audio server (issue 23): the
/// daemon's one pairing of players and streams, kept current from the link's changes. The
/// arbiter reads it to know which players still have streams (their audio context), the player
/// tracker to choose each player's one duck channel (its streams' volume where it has streams,
/// else MPRIS `Volume`), the status to say where each player is audible and how loud — every
/// player, with a session or not — and the stream policy shares its process trees (`trees`), so
/// each stream's `/proc` is read once.
///
/// The stream policy keeps its own copy of the link's inventory: its duck tells the user's
/// change from the echo of its own by the order of the server's events, which a joined snapshot
/// cannot give; it pairs streams with sessions (players and apps alike) by the same rule.
///
/// Fed on the link's thread before the other readers of the same change; read from any thread.
public final class PlayerStreams: Sendable {
    /// The streams' process trees, shared with the stream policy.
    public let trees: StreamProcessTrees
    private let join = Mutex(PlayerStreamJoin())

    public init(trees: StreamProcessTrees = StreamProcessTrees()) {
        self.trees = trees
    }

    /// One change of the link's inventory (on the link's thread): the streams' trees are read
    /// for those that appeared, the join is made again.
    public func inventoryChanged(_ change: InventoryChange) {
        let connected: Bool = if case .disconnected = change.kind { false } else { true }
        trees.follow(change.current)
        let made = PlayerStreamJoin.of(change.current, connected: connected, trees: trees)
        join.withLock { $0 = made }
    }

    /// The join now.
    var current: PlayerStreamJoin {
        join.withLock { $0 }
    }

    /// One of a player's playback streams now.
    public struct Stream: Sendable, Hashable {
        /// The server's index of the sink input.
        public var index: UInt32
        /// The sink it plays on; nil while the server moves it.
        public var sink: String?
        /// The loudest channel: 1.0 is 100 %.
        public var volume: Double
        public var muted: Bool
    }

    /// Where one player is audible now, and through which streams.
    public struct Placement: Sendable, Hashable {
        /// The sinks its streams play on, sorted (`PlayerStreamJoin.audibleSinks`).
        public var audibleOn: [String]
        /// Its playback streams.
        public var streams: [Stream]
    }

    /// Each of `players`' placement now, from one reading of the join, by bus name (a player
    /// with no stream: empty); nil while no server is connected.
    public func placements(of players: [DirectoryPlayer]) -> [String: Placement]? {
        let join = current
        let pids = Self.pids(of: players)
        guard let audible = join.audibleSinks(of: pids) else { return nil }
        let owned = join.streams(of: pids)
        return Dictionary(players.map { player in
            let streams = (owned[player.busName] ?? []).compactMap { id in
                join.streams[id].map { Stream(index: id.index, sink: $0.sink, volume: $0.volume, muted: $0.muted) }
            }
            return (player.busName, Placement(audibleOn: audible[player.busName] ?? [], streams: streams))
        }) { first, _ in first }
    }

    /// Whether `player` plays streams on a connected server now: its one duck channel is then
    /// their volume. False while its process is not known yet.
    public func hasStreams(_ player: DirectoryPlayer) -> Bool {
        guard let pid = player.processID else { return false }
        let join = current
        return join.connected && join.streams(of: [player.busName: pid])[player.busName] != nil
    }

    private static func pids(of players: [DirectoryPlayer]) -> [String: Int32] {
        Dictionary(players.compactMap { player in player.processID.map { (player.busName, $0) } }) { first, _ in first }
    }
}
