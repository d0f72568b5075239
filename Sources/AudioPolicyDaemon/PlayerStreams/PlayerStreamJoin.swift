import AudioServer

/// The players joined with their own playback streams — the one rule by which a stream is a
/// player's: the player's owner process (`GetConnectionUnixProcessID`, `OwnerProcessIDs`) is the
/// stream's `application.process.id` or the nearest of its ancestors that owns a player
/// (`nearestOwner`, the rule the stream policy applies to its sessions too), so `mpv` and a
/// browser's audio process under it are joined alike. Players of one process share its streams.
///
/// Pure; `PlayerStreams` keeps the streams current, each reader brings the players' pids it
/// knows (the arbiter from the directory's events in order, the status from the directory now).
struct PlayerStreamJoin: Sendable, Hashable {
    /// A playback stream: its process tree (nearest first, read once), the sink it plays on
    /// (nil: a sink the inventory does not hold, while the server moves it), and its volume and
    /// mute as the server reports them — the user's per-app setting in the mixer, or ours while
    /// a duck or a call holds it.
    struct Placed: Sendable, Hashable {
        var chain: [Int32]
        var sink: String?
        /// The loudest channel: 1.0 is 100 %.
        var volume: Double = 1
        var muted = false
    }

    /// The server is followed and connected: streams can be known to be absent.
    var connected = false
    /// The playback streams now.
    var streams: [StreamID: Placed] = [:]

    /// The process of `chain` that owns something, of `owners`: the stream's own process, else
    /// its nearest ancestor among them.
    static func nearestOwner(in chain: [Int32], among owners: Set<Int32>) -> Int32? {
        chain.first(where: owners.contains)
    }

    /// Each player's streams (players with none are left out), `pids` by bus name.
    func streams(of pids: [String: Int32]) -> [String: [StreamID]] {
        let owners = Set(pids.values)
        var byProcess: [Int32: [StreamID]] = [:]
        for (id, placed) in streams {
            if let owner = Self.nearestOwner(in: placed.chain, among: owners) { byProcess[owner, default: []].append(id) }
        }
        var byPlayer: [String: [StreamID]] = [:]
        for (name, pid) in pids {
            if let ids = byProcess[pid] { byPlayer[name] = ids.sorted() }
        }
        return byPlayer
    }

    /// Whether each of `players` has a playback stream now; nil where that is unknown (no server,
    /// its process not known yet).
    func presence(of players: some Sequence<String>, pids: [String: Int32]) -> [String: Bool?] {
        let owned = connected ? streams(of: pids) : [:]
        var presence: [String: Bool?] = [:]
        for name in players {
            guard connected, pids[name] != nil else {
                presence[name] = .some(nil)
                continue
            }
            presence[name] = owned[name] != nil
        }
        return presence
    }

    /// The sinks each player's streams play on, sorted (players with no stream on a known sink:
    /// none); nil while no server is connected.
    func audibleSinks(of pids: [String: Int32]) -> [String: [String]]? {
        guard connected else { return nil }
        return streams(of: pids).compactMapValues { ids in
            let sinks = Set(ids.compactMap { streams[$0]?.sink })
            return sinks.isEmpty ? nil : sinks.sorted()
        }
    }

    /// The playback streams of `inventory`, joined through `trees`.
    static func of(_ inventory: AudioInventory, connected: Bool, trees: StreamProcessTrees) -> PlayerStreamJoin {
        var join = PlayerStreamJoin(connected: connected)
        guard connected else { return join }
        for stream in inventory.streams.values where stream.id.direction == .playback {
            join.streams[stream.id] = Placed(chain: trees.chain(of: stream), sink: inventory.device(of: stream)?.name,
                                             volume: stream.volume.level, muted: stream.isMuted)
        }
        return join
    }
}
