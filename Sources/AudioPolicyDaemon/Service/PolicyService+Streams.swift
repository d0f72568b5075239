/// Sessions registered with `manageStreams` have their ducking and interruptions applied to
/// their process tree's audio-server streams by the stream policy.
extension PolicyService {
    /// Tells `streams` of every session registered with `manageStreams` (those registered
    /// already — a client re-registering with a restarted daemon may be first — and those to
    /// come), and of its removal.
    public func follow(streams: StreamPolicy) {
        streamFollower.withLock { $0.policy = streams }
        let managed = state.withLock { state in state.sessions.values.filter(\.managesStreams) }
        for served in managed.sorted(by: { $0.number < $1.number }) {
            streams.manage(served.session, number: served.number, label: served.label, owner: served.owner)
        }
    }

    /// The policy given to `follow(streams:)`, while it exists.
    var followedStreams: StreamPolicy? {
        streamFollower.withLock { $0.policy }
    }
}
