import AudioServer
import PolicyJournal

/// One step the stream policy decided, carried out in order outside its lock, on its thread:
/// a journal entry is always written before the change it describes, and a change whose entry
/// could not be written is not made (`ChangeJournal`).
enum StreamAction: Sendable {
    case journal(StreamJournalEntry)
    /// Crosses out the entries of `kind` about `stream` of server `cookie`.
    case unjournal(cookie: UInt32, index: UInt32, kind: StreamJournalEntry.Kind)
    case setVolume(StreamID, ChannelVolume, reason: String)
    case setMute(StreamID, Bool, reason: String)
    /// Undoes the change `entry` describes (the user's volume, or unmuted); its journal entry is
    /// crossed out once the server accepted. Refused — the stream went meanwhile, and the server's
    /// restore database may have kept our value — the entry becomes an orphan.
    case undo(StreamJournalEntry, reason: String)
    /// Sets right what the server's restore database keeps for `key` from the orphans of that
    /// key (`StreamPolicy+RestoreDatabase`).
    case repairRestoreEntry(StreamRestoreKey)
    case log(String)
}

extension StreamAction {
    /// The stream a volume or mute change is sent to.
    var changedStream: StreamID? {
        switch self {
        case .setVolume(let stream, _, _), .setMute(let stream, _, _): stream
        default: nil
        }
    }
}

extension StreamPolicy {
    /// Carries out `actions` (on the policy's thread). `outstanding` counts the server's answers
    /// still to come (a clean stop waits for them).
    func perform(_ actions: [StreamAction], outstanding: Outstanding? = nil) {
        var unjournaled: [StreamID: StreamJournalEntry] = [:]
        for action in actions {
            if let stream = action.changedStream, let entry = unjournaled.removeValue(forKey: stream) {
                journalRefused(entry)
                continue
            }
            switch action {
            case .journal(let entry):
                if let journal, !journal.record(entry) { unjournaled[entry.stream] = entry }
            case .unjournal(let cookie, let index, let kind):
                journal?.forgetStreams { $0.cookie == cookie && $0.index == index && $0.kind == kind }
            case .setVolume(let stream, let volume, let reason):
                outstanding?.begin()
                link.setVolume(stream, to: volume) { [weak self, log] accepted in
                    log(accepted ? "streams: \(stream) volume \(volume): \(reason)"
                                 : "streams: \(stream) volume \(volume) refused by the server (\(reason))")
                    if accepted { self?.thread.enqueue { [weak self] in self?.verifyDuck(of: stream, set: volume) } }
                    outstanding?.end()
                }
            case .setMute(let stream, let muted, let reason):
                outstanding?.begin()
                link.setMute(stream, muted) { [log] accepted in
                    log(accepted ? "streams: \(stream) \(muted ? "muted" : "unmuted"): \(reason)"
                                 : "streams: \(stream) \(muted ? "mute" : "unmute") refused by the server (\(reason))")
                    outstanding?.end()
                }
            case .undo(let entry, let reason):
                outstanding?.begin()
                let done: AudioServerLink.Completion = { [weak self] accepted in
                    defer { outstanding?.end() }
                    guard let self else { return }
                    let what = entry.kind == .volume ? "volume" : "mute"
                    if accepted {
                        self.log("streams: \(entry.stream) \(what) undone: \(reason)")
                        self.journal?.forgetStreams { $0 == entry }
                        self.thread.enqueue { [weak self] in self?.undoAccepted(entry) }
                    } else {
                        self.log("streams: \(entry.stream) \(what) not undone, refused by the server (\(reason))")
                        self.thread.enqueue { [weak self] in self?.undoRefused(entry) }
                    }
                }
                switch entry.change {
                case .volume(let found, _): link.setVolume(entry.stream, to: found, completion: done)
                case .mute: link.setMute(entry.stream, false, completion: done)
                }
            case .repairRestoreEntry(let key):
                repairRestoreEntry(key)
            case .log(let line):
                log("streams: " + line)
            }
        }
    }

    /// The journal could not write `entry` down, so its change was not sent: the stream is as if
    /// it had never been decided, and the next decision (the next event of the server or of a
    /// session) tries again.
    private func journalRefused(_ entry: StreamJournalEntry) {
        state.withLock { state in
            guard var applied = state.applied[entry.stream] else { return }
            var expected = state.expected[entry.stream] ?? Expected()
            switch entry.change {
            case .volume:
                applied.duck = nil
                expected.volume = nil
            case .mute:
                applied.muted = false
                expected.muted = nil
            }
            state.applied[entry.stream] = applied.isEmpty ? nil : applied
            state.expected[entry.stream] = expected.volume == nil && expected.muted == nil ? nil : expected
        }
        let what = entry.kind == .volume ? "ducked" : "muted"
        if let line = refusalLog.admit("streams: \(entry.stream) not \(what): \(ChangeJournal.refusal(journal?.problem))") {
            log(line)
        }
    }
}
