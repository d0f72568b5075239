import AudioServer

/// Which players have playback streams on the audio server: a stream is a player's when the
/// player's owner process (`GetConnectionUnixProcessID`, `OwnerProcessIDs`) is the stream's
/// `application.process.id` or one of its ancestors (`ProcessAncestry`) — the stream policy's
/// process-tree rule (`StreamPolicy.coveringSession`), so `mpv` and a browser's audio process
/// under it are paired alike. The nearest owner wins; players of one process share its streams.
/// Pure; the arbiter keeps it current (PlayerArbiter+Streams.swift).
struct PlayerStreamPairing: Sendable {
    /// The server is followed and connected: streams can be known to be absent.
    var connected = false
    /// Each player's owner's process, by bus name, once the bus answered.
    var pids: [String: Int32] = [:]
    /// The playback streams now, each with its process and that process's ancestors, nearest
    /// first (read once, when the stream appeared).
    var chains: [StreamID: [Int32]] = [:]

    /// Whether each of `players` has a playback stream now; nil where that is unknown (no server,
    /// its process not known yet).
    func presence(of players: some Sequence<String>) -> [String: Bool?] {
        var owning: Set<Int32> = []
        if connected {
            let known = Set(pids.values)
            for chain in chains.values {
                if let nearest = chain.first(where: known.contains) { owning.insert(nearest) }
            }
        }
        var presence: [String: Bool?] = [:]
        for name in players {
            guard connected, let pid = pids[name] else {
                presence[name] = .some(nil)
                continue
            }
            presence[name] = owning.contains(pid)
        }
        return presence
    }

    /// The playback streams of `inventory`, for `chains`.
    static func playbackStreams(of inventory: AudioInventory) -> [AudioStream] {
        inventory.streams.values.filter { $0.id.direction == .playback }
    }
}
