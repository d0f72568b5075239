import AudioPolicyClient
import MPRISDirectory

/// The join's part of `GetStatus`: for each listed player, the sinks it is audible on and its
/// streams' volume and mute, read from the one join of players and streams (`PlayerStreams`) —
/// every player, with a session or not.
enum PlayerStreamsStatus {
    /// Fills `audibleOn` and `streams` of `status.players` from `join`, for the directory's
    /// `players` now; leaves both nil while no server is connected.
    static func fill(_ status: inout PolicyStatus, from join: PlayerStreams, players: [DirectoryPlayer]) {
        guard let placements = join.placements(of: players) else { return }
        for index in status.players.indices {
            let placement = placements[status.players[index].busName]
            status.players[index].streams = (placement?.streams ?? []).map { stream in
                PolicyStatus.PlayerStream(index: stream.index, sink: stream.sink.map(AudioServerStatus.cut),
                                          volume: stream.volume, muted: stream.muted)
            }
            status.players[index].audibleOn = (placement?.audibleOn ?? []).map(AudioServerStatus.cut)
        }
    }
}
