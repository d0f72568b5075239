import AudioServer
import PolicyJournal

/// Changes that outlived their stream or their daemon.
///
/// The server's restore database (PulseAudio's module-stream-restore, WirePlumber's
/// restore-stream) files a stream's volume and mute under its role or application when it ends:
/// a stream that ended while we had it ducked or muted leaves our value there, and the next
/// stream of that key would start ducked or muted — for good, since nobody would undo it. So such
/// a change stays journaled (an orphan) until the next stream of its key appears: if it starts
/// with exactly our value, it is set back to the user's.
extension StreamPolicy {
    /// After connecting: each journaled change whose stream is still there, as we left it, is
    /// undone; one whose stream is gone becomes an orphan.
    func replay(_ entries: [StreamJournalEntry], in state: inout State) -> [StreamAction] {
        guard let cookie = state.inventory.server?.cookie else { return [] }
        var actions: [StreamAction] = []
        for entry in entries {
            let forget = StreamAction.unjournal(cookie: entry.cookie, index: entry.index, kind: entry.kind)
            guard entry.cookie == cookie, let stream = state.inventory.streams[entry.stream],
                  (StreamRestoreKey(stream) ?? .none) == entry.key else {
                actions += orphan(entry, in: &state, because: "its stream is gone")
                continue
            }
            var expected = state.expected[stream.id] ?? Expected()
            switch entry.change {
            case .volume(let found, let set):
                if Self.same(stream.volume, set) {
                    expected.volume = found
                    actions.append(.undo(entry, reason: "mprisd had ducked it before it stopped"))
                } else {
                    actions += [forget, .log("\(stream.id) keeps volume \(stream.volume): changed since mprisd ducked it")]
                }
            case .mute:
                if stream.isMuted {
                    expected.muted = false
                    actions.append(.undo(entry, reason: "mprisd had muted it before it stopped"))
                } else {
                    actions += [forget]
                }
            }
            state.expected[stream.id] = expected
        }
        return actions
    }

    /// Streams we had changed that are gone since `previous`: their changes become orphans.
    func vanished(since previous: AudioInventory, in state: inout State) -> [StreamAction] {
        var actions: [StreamAction] = []
        for id in previous.streams.keys where state.inventory.streams[id] == nil {
            state.appeared[id] = nil
            state.expected[id] = nil
            state.pairs[id] = nil
            for entry in state.undone.removeValue(forKey: id) ?? [] where entry.key.isShared {
                // Journaled again: the database may still hold our value for its key.
                state.settleIfClean.insert(entry)
                actions.append(.journal(entry))
                actions += orphan(entry, in: &state, because: "\(id) ended soon after it was restored")
            }
            guard let applied = state.applied.removeValue(forKey: id), let cookie = previous.server?.cookie else { continue }
            if let duck = applied.duck {
                actions += orphan(StreamJournalEntry(cookie: cookie, index: id.index, key: applied.key,
                                                     change: .volume(found: duck.found, set: duck.set)),
                                  in: &state, because: "\(id) ended while ducked")
            }
            if applied.muted {
                actions += orphan(StreamJournalEntry(cookie: cookie, index: id.index, key: applied.key, change: .mute),
                                  in: &state, because: "\(id) ended while muted")
            }
        }
        return actions
    }

    /// An undo the server took (pipewire-pulse also takes one for a stream that is just ending):
    /// remembered while the stream lives, since its end may still leave our value in the restore
    /// database; a stream gone already leaves it as an orphan at once.
    func undoAccepted(_ entry: StreamJournalEntry) {
        let actions = state.withLock { state -> [StreamAction] in
            guard !state.stopped, state.inventory.server?.cookie == entry.cookie else { return [] }
            guard state.inventory.streams[entry.stream] == nil else {
                state.undone[entry.stream, default: []].append(entry)
                return []
            }
            guard entry.key.isShared else { return [] }
            state.settleIfClean.insert(entry)
            return [.journal(entry)] + orphan(entry, in: &state, because: "\(entry.stream) ended as it was restored")
        }
        perform(actions)
    }

    /// An undo the server refused: the stream went before it arrived (its session ended with
    /// it), so its key may keep our value (on the policy's thread).
    func undoRefused(_ entry: StreamJournalEntry) {
        let actions = state.withLock { state -> [StreamAction] in
            guard !state.stopped, state.inventory.server?.cookie == entry.cookie else { return [] }
            return orphan(entry, in: &state, because: "\(entry.stream) ended before it was restored")
        }
        perform(actions)
    }

    /// Keeps `entry` journaled until the next stream of its key; one without a shared key has
    /// nothing left to repair.
    private func orphan(_ entry: StreamJournalEntry, in state: inout State, because reason: String) -> [StreamAction] {
        guard entry.key.isShared else {
            return [.unjournal(cookie: entry.cookie, index: entry.index, kind: entry.kind)]
        }
        state.orphans.append(entry)
        return [.log("\(reason): the next '\(entry.key)' stream is set right if it starts with mprisd's value"),
                .repairRestoreEntry(entry.key)]
    }

    /// New streams since `previous` whose key has orphans take them over: the server applies
    /// what it kept for the key either as the stream appears (PulseAudio) or in the stream's
    /// first change right after (WirePlumber). So a stream that starts, or first changes, to
    /// exactly our value gets the user's back; its first change of volume (or mute) settles the
    /// orphans of that kind either way. A taken-over orphan whose stream ends unsettled is an
    /// orphan again.
    func repairNewStreams(since previous: AudioInventory, in state: inout State) -> [StreamAction] {
        var actions: [StreamAction] = []
        // Watched streams that ended: their entries wait for the next stream of their key.
        for (id, entries) in state.watching where state.inventory.streams[id] == nil {
            state.watching[id] = nil
            state.orphans += entries
        }
        for stream in state.inventory.sortedStreams where stream.id.direction == .playback {
            let before = previous.streams[stream.id]
            if before == nil, !state.orphans.isEmpty, let key = StreamRestoreKey(stream), key.isShared {
                let mine = state.orphans.filter { $0.key == key }
                state.orphans.removeAll { $0.key == key }
                if !mine.isEmpty { state.watching[stream.id, default: []] += mine }
            }
            guard let entries = state.watching[stream.id] else { continue }
            var left: [StreamJournalEntry] = []
            for entry in entries {
                switch entry.change {
                case .volume(let found, let set):
                    let settles = before == nil ? Self.same(stream.volume, set) : stream.volume != before?.volume
                    guard settles else {
                        left.append(entry)
                        continue
                    }
                    // A duck of ours in place now (its session is ducked) is not the server's
                    // leftover: it is undone with its session, not here.
                    if Self.same(stream.volume, set), state.expected[stream.id]?.volume == nil,
                       state.applied[stream.id]?.duck == nil {
                        state.expected[stream.id, default: Expected()].volume = found
                        actions.append(.setVolume(stream.id, found,
                                                  reason: "it started with the ducked volume the server kept for '\(entry.key)'"))
                    }
                case .mute:
                    let settles = before == nil ? stream.isMuted : stream.isMuted != before?.isMuted
                    guard settles else {
                        left.append(entry)
                        continue
                    }
                    // Likewise a mute of ours in place now (a call began as the stream did:
                    // WirePlumber's restore of the key may come after our mute).
                    if stream.isMuted, state.expected[stream.id]?.muted == nil, state.applied[stream.id]?.muted != true {
                        state.expected[stream.id, default: Expected()].muted = false
                        actions.append(.setMute(stream.id, false,
                                                reason: "it started muted as the server kept '\(entry.key)' from mprisd's mute"))
                    }
                }
                actions.append(.unjournal(cookie: entry.cookie, index: entry.index, kind: entry.kind))
                state.settleIfClean.remove(entry)
            }
            state.watching[stream.id] = left.isEmpty ? nil : left
        }
        return actions
    }
}
