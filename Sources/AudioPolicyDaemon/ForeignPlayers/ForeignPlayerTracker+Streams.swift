import SessionCore

/// Players whose `Volume` cannot duck them (missing, read-only, ignored — Firefox answers "not
/// supported", Spotify ignores it) are ducked through their audio-server streams: the stream
/// policy follows the player's session and lowers the streams of the player's process tree.
/// Interruption stays `Pause`.
extension ForeignPlayerTracker {
    /// The stream policy that ducks such players from now on, and to which every player claims
    /// its streams (those found already too); `join` says which players play streams now.
    public func follow(streams: StreamPolicy, join: PlayerStreams) {
        let known = state.withLock { state -> [(String, UInt64, Bool)] in
            state.streams = streams
            state.join = join
            return state.tracked.values.filter { $0.session != nil }
                .map { ($0.player.busName, $0.player.token, $0.player.duckByStream) }
        }
        for (name, token, ducking) in known { handOver(name, token: token, ducking: ducking) }
    }

    /// Hands the player's session to the stream policy (its ducking only: its interruption is
    /// still a `Pause`). Without a stream policy the player stays unducked, and the log says so.
    func duckThroughStreams(_ name: String, token: UInt64) {
        handOver(name, token: token, ducking: true)
    }

    /// Tells the stream policy that the player's process tree plays its own streams: they are
    /// no app's implicit session (issue 15); only a player ducked through streams has them
    /// lowered.
    func claimStreams(_ name: String, token: UInt64) {
        handOver(name, token: token, ducking: false)
    }

    /// Whether the join shows playback streams of the player now (its one duck channel is then
    /// the streams' volume, the user's per-app volume in the mixer, which comes back exactly).
    func playsStreams(_ name: String, token: UInt64) -> Bool {
        let join = state.withLock { state -> PlayerStreams? in
            guard let tracked = state.tracked[name], tracked.player.token == token, tracked.session != nil,
                  state.streams != nil else { return nil }
            return state.join
        }
        guard let join, let listed = directory.player(name), listed.appearance == token else { return false }
        return join.hasStreams(listed)
    }

    private func handOver(_ name: String, token: UInt64, ducking: Bool) {
        let found = state.withLock { state -> (AudioSession, UInt64, String, StreamPolicy?)? in
            guard let tracked = state.tracked[name], tracked.player.token == token,
                  let session = tracked.session else { return nil }
            return (session, tracked.number, tracked.player.owner, state.streams)
        }
        guard let (session, number, owner, streams) = found else { return }
        guard let streams else {
            if ducking { log("cannot duck \(name): no audio server is followed") }
            return
        }
        // The directory asked the bus for the owner's process already; the stream policy asks
        // only when that answer is not in yet.
        let listed = directory.player(name)
        let pid = listed?.appearance == token ? listed?.processID : nil
        streams.manage(session, number: number, label: name, owner: owner, pid: pid, ducksStreams: ducking,
                       mutesOnInterruption: false, coversCapture: false, isMPRISPlayer: true)
    }
}
