import AudioServer

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
                if stream.volume == set {
                    expected.volume = found
                    actions += [.setVolume(stream.id, found, reason: "restored: a previous mprisd had ducked it"), forget]
                } else {
                    actions += [forget, .log("\(stream.id) keeps volume \(stream.volume): changed since mprisd ducked it")]
                }
            case .mute:
                if stream.isMuted {
                    expected.muted = false
                    actions += [.setMute(stream.id, false, reason: "restored: a previous mprisd had muted it"), forget]
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
            state.ancestry[id] = nil
            state.expected[id] = nil
            state.pairs[id] = nil
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

    /// Keeps `entry` journaled until the next stream of its key; one without a shared key has
    /// nothing left to repair.
    private func orphan(_ entry: StreamJournalEntry, in state: inout State, because reason: String) -> [StreamAction] {
        guard entry.key.isShared else {
            return [.unjournal(cookie: entry.cookie, index: entry.index, kind: entry.kind)]
        }
        state.orphans.append(entry)
        return [.log("\(reason): the next '\(entry.key)' stream is set right if it starts with mprisd's value")]
    }

    /// New streams since `previous` whose key has orphans: one that starts with exactly our
    /// value gets the user's back. Either way the orphans of that key are done: the first new
    /// stream shows what the database held.
    func repairNewStreams(since previous: AudioInventory, in state: inout State) -> [StreamAction] {
        guard !state.orphans.isEmpty else { return [] }
        var actions: [StreamAction] = []
        for stream in state.inventory.sortedStreams
        where stream.id.direction == .playback && previous.streams[stream.id] == nil {
            guard let key = StreamRestoreKey(stream), key.isShared else { continue }
            let mine = state.orphans.filter { $0.key == key }
            guard !mine.isEmpty else { continue }
            state.orphans.removeAll { $0.key == key }
            var expected = state.expected[stream.id] ?? Expected()
            for entry in mine {
                switch entry.change {
                case .volume(let found, let set) where stream.volume == set && expected.volume == nil:
                    expected.volume = found
                    actions.append(.setVolume(stream.id, found,
                                              reason: "it started with the ducked volume the server kept for '\(key)'"))
                case .mute where stream.isMuted && expected.muted == nil:
                    expected.muted = false
                    actions.append(.setMute(stream.id, false, reason: "it started muted as the server kept '\(key)' from mprisd's mute"))
                default:
                    break
                }
                actions.append(.unjournal(cookie: entry.cookie, index: entry.index, kind: entry.kind))
            }
            state.expected[stream.id] = expected.volume == nil && expected.muted == nil ? nil : expected
        }
        return actions
    }
}
