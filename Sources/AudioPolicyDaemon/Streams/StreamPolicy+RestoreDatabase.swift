import AudioServer
import PolicyJournal

/// Repairing the server's restore database directly (`pa_ext_stream_restore_read` / `…_write`,
/// on PulseAudio and pipewire-pulse alike): when a stream we changed has gone, the entry of its
/// key is read, and if it holds our value (the ducked volume, or muted) it is written back with
/// the user's — so the next stream of that key starts right, whenever it comes, with or without
/// a daemon. Orphans are settled (crossed out) once the write is accepted; while the database
/// does not show our value (WirePlumber stores asynchronously) they stay, and the next stream
/// of the key is set right instead (`repairNewStreams`).
extension StreamPolicy {
    /// Starts a read-and-write of `key`'s entry, or asks for one more after the one under way.
    func repairRestoreEntry(_ key: StreamRestoreKey) {
        let start = state.withLock { state -> Bool in
            guard !state.stopped, key.isShared else { return false }
            if state.repairing[key] != nil {
                state.repairing[key] = true
                return false
            }
            state.repairing[key] = false
            return true
        }
        guard start else { return }
        link.readRestoreEntry(key.value) { [weak self] result in
            guard let self else { return }
            self.thread.enqueue { [weak self] in self?.restoreEntryRead(key, result) }
        }
    }

    /// The entry as the server keeps it: set right if it holds our value (on the policy's thread).
    private func restoreEntryRead(_ key: StreamRestoreKey, _ result: Result<RestoreEntry?, AudioServerError>) {
        guard case .success(let stored?) = result else { return repairDone(key) }
        let plan = state.withLock { state -> (RestoreEntry, [StreamJournalEntry])? in
            let orphans = state.orphans.filter { $0.key == key }
                + state.watching.values.joined().filter { $0.key == key }
            var fixed = stored
            var settled: [StreamJournalEntry] = []
            var clean: [StreamJournalEntry] = []
            for entry in orphans {
                switch entry.change {
                case .volume(let found, let set):
                    if let volume = fixed.volume, Self.same(volume, set) {
                        fixed.volume = found
                        settled.append(entry)
                    } else if state.settleIfClean.contains(entry) {
                        clean.append(entry)
                    }
                case .mute:
                    if fixed.isMuted {
                        fixed.isMuted = false
                        settled.append(entry)
                    } else if state.settleIfClean.contains(entry) {
                        clean.append(entry)
                    }
                }
            }
            // An undone change the database does not show: the undo reached it.
            state.settle(clean)
            for entry in clean { journal?.forgetStreams { $0 == entry } }
            return settled.isEmpty ? nil : (fixed, settled)
        }
        guard let (fixed, settled) = plan else { return repairDone(key) }
        link.writeRestoreEntry(key.value, volume: fixed.volume, muted: fixed.isMuted, device: fixed.device) { [weak self] accepted in
            guard let self else { return }
            self.thread.enqueue { [weak self] in self?.restoreEntryWritten(key, stored: stored, fixed: fixed, settled, accepted) }
        }
    }

    private func restoreEntryWritten(_ key: StreamRestoreKey, stored: RestoreEntry, fixed: RestoreEntry,
                                     _ settled: [StreamJournalEntry], _ accepted: Bool) {
        if accepted {
            state.withLock { $0.settle(settled) }
            for entry in settled { journal?.forgetStreams { $0 == entry } }
            let volume = fixed.volume.map { "volume \($0)" } ?? "no volume"
            log("streams: the server's restore entry '\(key)' set right (\(volume), \(fixed.isMuted ? "muted" : "unmuted"); it kept \(stored.volume.map { "\($0)" } ?? "-")\(stored.isMuted ? ", muted" : ""))")
        } else {
            log("streams: the server's restore entry '\(key)' could not be written; the next stream of it is set right instead")
        }
        repairDone(key)
    }

    private func repairDone(_ key: StreamRestoreKey) {
        let again = state.withLock { state in state.repairing.removeValue(forKey: key) ?? false }
        if again { repairRestoreEntry(key) }
    }

    /// Volumes equal up to the rounding of a server that stores them as floats (PipeWire): within
    /// 1/1000 of 100 % on every channel (`DuckLevel`).
    static func same(_ a: ChannelVolume, _ b: ChannelVolume) -> Bool {
        a.isSame(as: b)
    }
}

extension StreamPolicy.State {
    /// Orphans that need nothing more: out of every list.
    mutating func settle(_ entries: [StreamJournalEntry]) {
        guard !entries.isEmpty else { return }
        orphans.removeAll { entries.contains($0) }
        for (id, watched) in watching {
            let left = watched.filter { !entries.contains($0) }
            watching[id] = left.isEmpty ? nil : left
        }
        for entry in entries { settleIfClean.remove(entry) }
    }
}
