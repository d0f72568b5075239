import AudioServer
import FoundationEssentials

/// The players' audio-server streams (issue 16): a player whose streams have been gone for the
/// ranking's limit leaves its audio context (PlayerRanking+Streams.swift). The streams come
/// joined to the players from the daemon's one join (`PlayerStreams`, fed first by the same link
/// change); the owners' pids from the directory's events, in order. One timer of the link's
/// loop waits for the earliest deadline — armed only while one is pending, moved as the ranking
/// changes, so an idle daemon with no player on its way out wakes up for nothing. The timer and
/// the time are the clock's (`PolicyClock`: the link's loop in the daemon, a driven one in tests).
///
/// Threads: inventory changes and the timer come on the link's thread, pids on the bus's;
/// all state is the arbiter's, behind its lock, which is never held while arming the timer.
extension PlayerArbiter {
    /// What the arbiter follows of the audio server.
    struct StreamFollowing {
        /// The daemon's join of players and streams, read at each of the link's changes.
        var players: PlayerStreams?
        /// Each player's owner's process, by bus name, once the bus answered.
        var pids: [String: Int32] = [:]
        /// The playback streams as of the last change that added or removed one.
        var join = PlayerStreamJoin()
        /// The timer armed for `deadline`, if any.
        var timer: PolicyTimer?
        var deadline: Date?
        /// Counts the timers armed, so that a timer armed late is not kept over a newer one.
        var generation: UInt64 = 0
    }

    /// Pairs the players with their streams from now on, as `streams` joins them, with time and
    /// the deadline's timer from `clock` (the daemon's: `.live(link)`); the caller passes each of
    /// the link's changes to `inventoryChanged`, after `streams` had it.
    public func follow(streams: PlayerStreams, clock: PolicyClock) {
        self.clock.withLock { $0 = clock }
        state.withLock { state in state.streams.players = streams }
    }

    /// One change of the link's inventory (on the link's thread): when a stream came or went (or
    /// the server did), every player's presence is told to the ranking.
    public func inventoryChanged(_ change: InventoryChange) {
        let changed = state.withLock { state -> Bool in
            guard let players = state.streams.players else { return false }
            let join = players.current
            // A volume, a cork, a move: not a stream that came or went.
            if join.connected == state.streams.join.connected,
               Set(join.streams.keys) == Set(state.streams.join.streams.keys) { return false }
            state.streams.join = join
            return true
        }
        if changed { updatePresence() }
    }

    /// Tells the ranking which players have streams now, then announces.
    func updatePresence() {
        let at = now()
        state.withLock { state in
            for (name, present) in state.streams.join.presence(of: state.followed.keys, pids: state.streams.pids) {
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
        let clock = self.clock.withLock { $0 }
        let (left, plan) = state.withLock { state -> ([(String, Date?)], (PolicyTimer?, PolicyClock, Date?, UInt64)?) in
            let left = state.ranking.expireStreams(at: at).map { ($0, state.ranking.entries[$0]?.streams.left) }
            let next = state.ranking.nextStreamsDeadline
            guard next != state.streams.deadline, let clock else { return (left, nil) }
            let old = state.streams.timer
            state.streams.timer = nil
            state.streams.deadline = next
            state.streams.generation += 1
            return (left, (old, clock, next, state.streams.generation))
        }
        for (name, since) in left {
            log("player \(name) left its audio context: its streams gone since \(PlayerRanking.clock(since))")
        }
        guard let (old, clock, next, generation) = plan else { return }
        old?.cancel()
        guard let next else { return }
        // Rounded up to the next millisecond: a timer that fires a hair early finds nothing due.
        let delay = Duration.milliseconds(Int64((max(next.timeIntervalSince(at), 0) * 1000).rounded(.up)) + 1)
        let timer = clock.after(delay) { [weak self] in self?.streamsDeadlineReached(generation) }
        let kept = state.withLock { state -> Bool in
            guard state.streams.generation == generation else { return false }
            state.streams.timer = timer
            return true
        }
        if !kept { timer?.cancel() }
    }

    /// The timer of `generation` fired (on the clock's thread: the link's).
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
