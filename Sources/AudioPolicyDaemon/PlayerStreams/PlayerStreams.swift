import AudioServer
import MPRISDirectory
import Synchronization

/// The players of the directory joined with their streams on the audio server (issue 23): the
/// daemon's one pairing of players and streams, kept current from the link's changes. The
/// arbiter reads it to know which players still have streams (their audio context), the status
/// to say where each player is audible — every player, with a session or not — and the stream
/// policy shares its process trees (`trees`), so each stream's `/proc` is read once.
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

    /// Where each of `players` is audible now, by bus name (a player with no stream on a known
    /// sink: an empty list); nil while no server is connected.
    public func audibleSinks(of players: [DirectoryPlayer]) -> [String: [String]]? {
        let pids = Dictionary(players.compactMap { player in player.processID.map { (player.busName, $0) } }) { first, _ in first }
        guard let audible = current.audibleSinks(of: pids) else { return nil }
        return Dictionary(uniqueKeysWithValues: players.map { ($0.busName, audible[$0.busName] ?? []) })
    }
}
