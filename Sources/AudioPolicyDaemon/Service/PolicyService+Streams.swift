/// Sessions registered with `manageStreams` have their ducking and interruptions applied to
/// their process tree's audio-server streams by the stream policy. Every other session claims
/// its process tree's streams there without having them changed: they are no app's implicit
/// session, and a sink they play on going away is that session's device loss (`AudibleSinks`).
extension PolicyService {
    /// Tells `streams` of every session (those registered already — a client re-registering
    /// with a restarted daemon may be first — and those to come), and of its removal.
    public func follow(streams: StreamPolicy) {
        streamFollower.withLock { $0.policy = streams }
        let sessions = state.withLock { state in Array(state.sessions.values) }
        for served in sessions.sorted(by: { $0.number < $1.number }) {
            streams.follow(served)
        }
    }

    /// The policy given to `follow(streams:)`, while it exists.
    var followedStreams: StreamPolicy? {
        streamFollower.withLock { $0.policy }
    }
}

extension StreamPolicy {
    /// Manages `served`'s streams (`manageStreams`), or only claims them.
    func follow(_ served: ServedSession) {
        if served.managesStreams {
            manage(served.session, number: served.number, label: served.label, owner: served.owner)
        } else {
            manage(served.session, number: served.number, label: served.label, owner: served.owner,
                   ducksStreams: false, mutesOnInterruption: false, coversCapture: true)
        }
    }
}
