import SessionCore

/// Players whose `Volume` cannot duck them (missing, read-only, ignored — Firefox answers "not
/// supported", Spotify ignores it) are ducked through their audio-server streams: the stream
/// policy follows the player's session and lowers the streams of the player's process tree.
/// Interruption stays `Pause`.
extension ForeignPlayerTracker {
    /// The stream policy that ducks such players from now on.
    public func follow(streams: StreamPolicy) {
        state.withLock { $0.streams = streams }
    }

    /// Hands the player's session to the stream policy (its ducking only: its interruption is
    /// still a `Pause`). Without a stream policy the player stays unducked, and the log says so.
    func duckThroughStreams(_ name: String, token: UInt64) {
        let found = state.withLock { state -> (AudioSession, UInt64, String, StreamPolicy?)? in
            guard let tracked = state.tracked[name], tracked.player.token == token,
                  let session = tracked.session else { return nil }
            return (session, tracked.number, tracked.player.owner, state.streams)
        }
        guard let (session, number, owner, streams) = found else { return }
        guard let streams else { return log("cannot duck \(name): no audio server is followed") }
        streams.manage(session, number: number, label: name, owner: owner, mutesOnInterruption: false)
    }
}
