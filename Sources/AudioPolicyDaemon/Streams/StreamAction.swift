import AudioServer

/// One step the stream policy decided, carried out in order outside its lock, on its thread:
/// a journal entry is always written before the change it describes.
enum StreamAction: Sendable {
    case journal(StreamJournalEntry)
    /// Crosses out the entries of `kind` about `stream` of server `cookie`.
    case unjournal(cookie: UInt32, index: UInt32, kind: StreamJournalEntry.Kind)
    case setVolume(StreamID, ChannelVolume, reason: String)
    case setMute(StreamID, Bool, reason: String)
    case log(String)
}

extension StreamPolicy {
    /// Carries out `actions` (on the policy's thread). `outstanding` counts the server's answers
    /// still to come (a clean stop waits for them).
    func perform(_ actions: [StreamAction], outstanding: Outstanding? = nil) {
        for action in actions {
            switch action {
            case .journal(let entry):
                journal?.record(entry)
            case .unjournal(let cookie, let index, let kind):
                journal?.forgetStreams { $0.cookie == cookie && $0.index == index && $0.kind == kind }
            case .setVolume(let stream, let volume, let reason):
                outstanding?.begin()
                link.setVolume(stream, to: volume) { [log] accepted in
                    log(accepted ? "streams: \(stream) volume \(volume): \(reason)"
                                 : "streams: \(stream) volume \(volume) refused by the server (\(reason))")
                    outstanding?.end()
                }
            case .setMute(let stream, let muted, let reason):
                outstanding?.begin()
                link.setMute(stream, muted) { [log] accepted in
                    log(accepted ? "streams: \(stream) \(muted ? "muted" : "unmuted"): \(reason)"
                                 : "streams: \(stream) \(muted ? "mute" : "unmute") refused by the server (\(reason))")
                    outstanding?.end()
                }
            case .log(let line):
                log("streams: " + line)
            }
        }
    }
}
