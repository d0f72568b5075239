import AudioServer
import FoundationEssentials

/// The players' audio-server streams (issue 16): a player whose streams have been gone for the
/// ranking's limit leaves its audio context (PlayerRanking+Streams.swift). This side does the
/// I/O: the owners' pids from the directory, the streams' process trees from `/proc`, the inventory
/// from the daemon's `AudioServerLink`, and one timer of the link's loop for the earliest
/// deadline — armed only while one is pending, moved as the ranking changes, so an idle daemon
/// with no player on its way out wakes up for nothing.
///
/// Threads: inventory changes and the timer come on the link's thread, pids on the bus's;
/// all state is the arbiter's, behind its lock, which is never held while reading `/proc` or
/// arming the timer.
extension PlayerArbiter {
    /// What the arbiter follows of the audio server.
    struct StreamFollowing {
        /// The daemon's link, once `follow(audioServer:)`: without it no player is paired.
        var link: AudioServerLink?
        var pairing = PlayerStreamPairing()
        /// The timer armed for `deadline`, if any.
        var timer: LoopTimer?
        var deadline: Date?
        /// Counts the timers armed, so that a timer armed late is not kept over a newer one.
        var generation: UInt64 = 0
    }

    /// Pairs the players with their streams on `link`'s server from now on; the caller passes
    /// each of the link's changes to `inventoryChanged`.
    public func follow(audioServer link: AudioServerLink) {
        state.withLock { $0.streams.link = link }
    }

    /// One change of the link's inventory (on the link's thread): the streams' process trees are
    /// read for the streams that appeared; every player's presence is told to the ranking.
    public func inventoryChanged(_ change: InventoryChange) {
        let connected: Bool = if case .disconnected = change.kind { false } else { true }
        let streams = connected ? PlayerStreamPairing.playbackStreams(of: change.current) : []
        let known = state.withLock { state -> Set<StreamID>? in
            guard state.streams.link != nil else { return nil }
            // A volume, a cork, a property: not a stream that came or went.
            let ids = Set(streams.map(\.id))
            if case .updated = change.kind, state.streams.pairing.connected,
               ids == Set(state.streams.pairing.chains.keys) { return nil }
            return Set(state.streams.pairing.chains.keys)
        }
        guard let known else { return }
        // Read once per stream, while its process is alive (`ProcessAncestry`).
        var read: [StreamID: [Int32]] = [:]
        for stream in streams where !known.contains(stream.id) {
            read[stream.id] = stream.processID.map { ProcessAncestry.chain(from: $0) } ?? []
        }
        state.withLock { state in
            let kept = state.streams.pairing.chains
            state.streams.pairing.connected = connected
            state.streams.pairing.chains = Dictionary(uniqueKeysWithValues: streams.map { stream in
                (stream.id, read[stream.id] ?? kept[stream.id] ?? [])
            })
        }
        updatePresence()
    }

    /// Tells the ranking which players have streams now, then announces.
    func updatePresence() {
        let at = now()
        state.withLock { state in
            for (name, present) in state.streams.pairing.presence(of: state.followed.keys) {
                state.ranking.streamsChanged(name, present: present, at: at)
            }
        }
        announce()
    }

    /// Lets the players whose streams have been gone for the limit leave their context, and
    /// keeps the one timer on the earliest deadline left (none: no timer). Called before every
    /// announcement.
    func settleStreams() {
        let at = now()
        let (left, plan) = state.withLock { state -> ([(String, Date?)], (LoopTimer?, AudioServerLink, Date?, UInt64)?) in
            let left = state.ranking.expireStreams(at: at).map { ($0, state.ranking.entries[$0]?.streams.left) }
            let next = state.ranking.nextStreamsDeadline
            guard next != state.streams.deadline, let link = state.streams.link else { return (left, nil) }
            let old = state.streams.timer
            state.streams.timer = nil
            state.streams.deadline = next
            state.streams.generation += 1
            return (left, (old, link, next, state.streams.generation))
        }
        for (name, since) in left {
            log("player \(name) left its audio context: its streams gone since \(PlayerRanking.clock(since))")
        }
        guard let (old, link, next, generation) = plan else { return }
        old?.cancel()
        guard let next else { return }
        // Rounded up to the next millisecond: a timer that fires a hair early finds nothing due.
        let delay = Duration.milliseconds(Int64((max(next.timeIntervalSince(at), 0) * 1000).rounded(.up)) + 1)
        let timer = link.after(delay) { [weak self] in self?.streamsDeadlineReached(generation) }
        let kept = state.withLock { state -> Bool in
            guard state.streams.generation == generation else { return false }
            state.streams.timer = timer
            return true
        }
        if !kept { timer?.cancel() }
    }

    /// The timer of `generation` fired (on the link's thread).
    private func streamsDeadlineReached(_ generation: UInt64) {
        state.withLock { state in
            guard state.streams.generation == generation else { return }
            // Forgotten, so that settling arms the next one (or this one again, if it came early).
            state.streams.timer = nil
            state.streams.deadline = nil
        }
        announce()
    }
}
