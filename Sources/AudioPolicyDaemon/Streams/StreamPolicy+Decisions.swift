import AudioServer
import PolicyJournal
import SessionCore

/// The decisions: what each stream should be given its session's state, and what to do so.
extension StreamPolicy {
    /// One change reported by the link (on the policy's thread); `lost`: the sinks that went
    /// away in it.
    func apply(_ change: InventoryChange, lost: [AudioPort] = []) {
        reportDeviceLoss(lost, in: change)
        var actions = state.withLock { state -> [StreamAction] in
            guard !state.stopped else { return [] }
            switch change.kind {
            case .connected:
                state.reset(to: change.current)
                // Everything journaled (a dead predecessor's, or ours from before a reconnect)
                // is restored where the stream is still as we left it; the rest waits for the
                // next stream of its key.
                return replay(journal?.currentStreams ?? [], in: &state)
            case .disconnected(let reason):
                let changed = state.applied.count
                state.reset(to: change.current)
                return changed == 0 ? [] : [.log("the audio server went away (\(reason)); \(changed) stream change(s) stay journaled")]
            case .updated:
                state.inventory = change.current
                var actions = vanished(since: change.previous, in: &state)
                state.confirm(change)
                actions += repairNewStreams(since: change.previous, in: &state)
                return actions
            }
        }
        // Which apps are implicit sessions, and what the engine made of them, before the
        // streams are brought in line with every session.
        actions += updateImplicitSessions()
        perform(actions + state.withLock { state in state.stopped ? [] : reconcile(&state) })
    }

    /// After the server accepted a duck: a new stream whose server put its role's remembered
    /// volume back over ours may show no event of ours at all (the server's reads after each
    /// event can fold the two together), so the duck is checked once it is known to have landed
    /// and sent again, at most `duckChecks` times in the stream's first second (on the policy's
    /// thread). A check that comes before the event of our own change sends the same value once
    /// more: harmless.
    func verifyDuck(of id: StreamID, set volume: ChannelVolume) {
        let actions = state.withLock { state -> [StreamAction] in
            guard !state.stopped, let stream = state.inventory.streams[id], var applied = state.applied[id],
                  let duck = applied.duck, Self.same(duck.set, volume), !Self.same(stream.volume, volume),
                  state.isSettling(id, within: serverSettling, at: clock.now()),
                  applied.duckChecks < Self.duckChecks else { return [] }
            applied.duckChecks += 1
            state.applied[id] = applied
            var expected = state.expected[id] ?? Expected()
            expected.volume = volume
            state.expected[id] = expected
            return [.setVolume(id, volume, reason: "ducked again: the server put \(stream.volume) back over it")]
        }
        perform(actions)
    }

    /// How many times a new stream's duck is sent again (`verifyDuck`).
    static let duckChecks = 3

    /// Decides again after a session changed (on the policy's thread).
    func decide() {
        perform(state.withLock { state in state.stopped ? [] : reconcile(&state) })
    }

    /// Brings every playback stream in line with its session: ducked or not, muted or not.
    func reconcile(_ state: inout State) -> [StreamAction] {
        guard let cookie = state.inventory.server?.cookie else { return [] }
        var actions: [StreamAction] = []
        state.pairs = [:]
        let now = clock.now()
        state.noteAppearances(at: now)
        let wirePlumberDucks = RoleBasedDucking.ducked(in: state.inventory)
        state.wirePlumberDucksLogged.formIntersection(wirePlumberDucks)
        for stream in state.inventory.sortedStreams where stream.id.direction == .playback {
            let managed = session(of: stream, in: &state)
            if let managed { state.pairs[stream.id] = managed.number }
            guard managed != nil || state.applied[stream.id] != nil else { continue }
            var applied = state.applied[stream.id]
                ?? Applied(session: managed?.number ?? 0, key: StreamRestoreKey(stream) ?? .none)
            if let managed { applied.session = managed.number }
            var expected = state.expected[stream.id] ?? Expected()
            var wantDuck = managed.map { $0.isDucked && $0.ducksStreams } ?? false
            let wantMute = managed?.wantsMute ?? false
            let name = "\(stream.id) (\(stream.displayName))"
            if wantDuck, wirePlumberDucks.contains(stream.id) {
                // WirePlumber lowers its role loopback already: a duck of ours would stack on it.
                wantDuck = false
                if state.wirePlumberDucksLogged.insert(stream.id).inserted {
                    actions.append(.log("\(name): WirePlumber's role-based policy ducks it; not ducked a second time"))
                }
            }
            actions += adjustVolume(name, stream, cookie, &applied, &expected, ducked: wantDuck,
                                    settling: state.isSettling(stream.id, within: serverSettling, at: now),
                                    echoPossible: state.superseded.contains(stream.id))
            actions += adjustMute(name, stream, cookie, &applied, &expected, muted: wantMute)
            state.applied[stream.id] = applied.isEmpty ? nil : applied
            state.expected[stream.id] = expected.volume == nil && expected.muted == nil ? nil : expected
        }
        state.audible.update(pairs: state.pairs, in: state.inventory)
        return actions
    }

    private func adjustVolume(_ name: String, _ stream: AudioStream, _ cookie: UInt32, _ applied: inout Applied,
                              _ expected: inout Expected, ducked want: Bool, settling: Bool,
                              echoPossible: Bool) -> [StreamAction] {
        let now = expected.volume ?? stream.volume
        let index = stream.id.index
        if let duck = applied.duck {
            let reading = duck.reading(now)
            // The value we ducked from showing again is the late event of our own earlier request
            // while one of ours was still on its way (`echoPossible`); when none was, in a new
            // stream's first second, it is the server's restore-stream putting it back.
            let serverRestored = reading != .found || !echoPossible
            if reading != .ours && serverRestored && settling {
                // The server gave the new stream its role's remembered volume after we ducked it
                // (`serverSettling`; it may be the very value we ducked from): that is the user's
                // volume; the duck goes on from it.
                applied.duck = nil
                guard want else { return [.unjournal(cookie: cookie, index: index, kind: .volume)] }
                return lower(stream, now, cookie, &applied, &expected, reason: "ducked again: the server restored \(now) for its role")
            }
            if reading == .usersChoice {
                // The user chose a volume while ducked: theirs stays, now and after.
                applied.duck = nil
                applied.userKeptVolume = want
                return [.unjournal(cookie: cookie, index: index, kind: .volume),
                        .log("\(name) keeps volume \(now) the user chose while ducked (not restored to \(duck.found))")]
            }
            guard !want else { return [] }
            applied.duck = nil
            guard let back = duck.restoring(from: now) else { return [.unjournal(cookie: cookie, index: index, kind: .volume)] }
            expected.volume = back
            let entry = StreamJournalEntry(cookie: cookie, index: index, key: applied.key,
                                           change: .volume(found: duck.found, set: duck.set))
            return [.undo(entry, reason: "ducking ended (\(duck.set) → \(duck.found))")]
        }
        guard want else {
            applied.userKeptVolume = false
            return []
        }
        guard !applied.userKeptVolume else { return [] }
        return lower(stream, now, cookie, &applied, &expected, reason: "ducked (user had \(now))")
    }

    /// Lowers `stream` from `found` (journaled first).
    private func lower(_ stream: AudioStream, _ found: ChannelVolume, _ cookie: UInt32, _ applied: inout Applied,
                      _ expected: inout Expected, reason: String) -> [StreamAction] {
        guard let duck = Applied.Duck(lowering: found, by: Self.duckRatio) else { return [] }  // silent already
        let lowered = duck.set
        applied.duck = duck
        expected.volume = lowered
        return [.journal(StreamJournalEntry(cookie: cookie, index: stream.id.index, key: applied.key,
                                            change: .volume(found: found, set: lowered))),
                .setVolume(stream.id, lowered, reason: reason)]
    }

    private func adjustMute(_ name: String, _ stream: AudioStream, _ cookie: UInt32, _ applied: inout Applied,
                            _ expected: inout Expected, muted want: Bool) -> [StreamAction] {
        let muted = expected.muted ?? stream.isMuted
        let index = stream.id.index
        if applied.muted {
            if !muted {
                // The user unmuted it: theirs stays.
                applied.muted = false
                applied.userUnmuted = want
                return [.unjournal(cookie: cookie, index: index, kind: .mute),
                        .log("\(name) was unmuted by the user while interrupted")]
            }
            guard !want else { return [] }
            applied.muted = false
            expected.muted = false
            return [.undo(StreamJournalEntry(cookie: cookie, index: index, key: applied.key, change: .mute),
                          reason: "interruption ended")]
        }
        guard want else {
            applied.userUnmuted = false
            return []
        }
        // Muted already (by the user): not ours to unmute later.
        guard !applied.userUnmuted, !muted else { return [] }
        applied.muted = true
        expected.muted = true
        return [.journal(StreamJournalEntry(cookie: cookie, index: index, key: applied.key, change: .mute)),
                .setMute(stream.id, true, reason: "interrupted")]
    }

    /// A clean stop (the sessions are gone already): every change still in place is undone
    /// where the stream still has our value; changes of ended streams stay journaled.
    func undoAll(_ state: inout State) -> [StreamAction] {
        var actions = reconcile(&state)
        let unsettled = state.orphans.count + state.watching.values.reduce(0) { $0 + $1.count }
        if unsettled > 0 {
            actions.append(.log("\(unsettled) change(s) of ended streams stay journaled for the next daemon"))
        }
        return actions
    }
}

extension StreamPolicy.State {
    /// Starts afresh from `inventory` (connected or disconnected): nothing is in place as far as
    /// this instance knows; the journal says what may be.
    mutating func reset(to inventory: AudioInventory) {
        self.inventory = inventory
        appeared = [:]
        superseded = []
        pairs = [:]
        applied = [:]
        expected = [:]
        orphans = []
        watching = [:]
        undone = [:]
        settleIfClean = []
    }

    /// Records `now` as the first sight of every stream not seen before: the one clock of when a
    /// stream appeared, for `serverSettling` and the implicit sessions' `playerClaimWait`.
    mutating func noteAppearances(at now: ContinuousClock.Instant) {
        for id in inventory.streams.keys where appeared[id] == nil { appeared[id] = now }
    }

    /// Whether stream `id` appeared less than `settling` before `now` (`serverSettling`).
    func isSettling(_ id: StreamID, within settling: Duration, at now: ContinuousClock.Instant) -> Bool {
        appeared[id].map { now - $0 < settling } ?? false
    }

    /// Values we asked for are dropped from `expected` once the server shows them, or once it
    /// shows another change (someone else set the stream since).
    mutating func confirm(_ change: InventoryChange) {
        superseded = []
        for (id, value) in expected {
            guard let now = change.current.streams[id] else {
                expected[id] = nil
                continue
            }
            let before = change.previous.streams[id]
            var next = value
            if let volume = value.volume, StreamPolicy.same(now.volume, volume) || now.volume != before?.volume {
                next.volume = nil
                // Another value showed while ours was on its way: maybe the late event of an
                // earlier request of ours (an undo), which must not be taken for the server's.
                if !StreamPolicy.same(now.volume, volume) { superseded.insert(id) }
            }
            if let muted = value.muted, now.isMuted == muted || now.isMuted != before?.isMuted { next.muted = nil }
            expected[id] = next.volume == nil && next.muted == nil ? nil : next
        }
    }
}
