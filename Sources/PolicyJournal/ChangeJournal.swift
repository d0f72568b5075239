import Synchronization
import SystemContext

/// The daemon's journal of what it changed in other programs (`$XDG_STATE_HOME/mprisd/journal`):
/// a volume it lowered (and the value it found), a pause it caused that may be resumed, and the
/// audio-server streams it ducked or muted (`StreamJournalEntry`).
///
/// The user's volume and playing state are data: a daemon that dies in the middle of a ducking
/// or a call must not keep them. So each change is written down — atomically, before it is made
/// — and crossed out once undone; whoever comes next (the journal guard, a restarted daemon)
/// replays what is left (`JournalReplay`). A clean stop undoes everything and leaves it empty.
///
/// Thread safety: the entries and every write of the file are behind one lock; a write is a
/// few hundred bytes and one `fsync`, done on whichever thread made the decision.
public final class ChangeJournal: Sendable {
    public typealias Log = @Sendable (String) -> Void

    public let file: StateFile
    private let log: Log
    private let entries: Mutex<Contents>

    /// Everything the file holds: the players' entries and the streams'.
    private struct Contents {
        var players: [JournalEntry]
        var streams: [StreamJournalEntry]
    }

    /// The journal's usual place.
    public static var defaultFile: StateFile { StateFile(named: "journal") }

    /// A journal kept in `file`, starting with `entries` and `streams` (written at once, so the
    /// file says exactly that). `log` hears about a file that cannot be written.
    public init(file: StateFile = ChangeJournal.defaultFile, entries: [JournalEntry] = [],
                streams: [StreamJournalEntry] = [], log: @escaping Log) {
        self.file = file
        self.log = log
        self.entries = Mutex(Contents(players: entries, streams: streams))
        self.entries.withLock { save($0) }
    }

    /// What the journal holds now about players.
    public var current: [JournalEntry] { entries.withLock { $0.players } }

    /// What the journal holds now about audio-server streams.
    public var currentStreams: [StreamJournalEntry] { entries.withLock { $0.streams } }

    /// Writes `entry` down, replacing an older one of the same kind for the same player.
    public func record(_ entry: JournalEntry) {
        entries.withLock { entries in
            entries.players.removeAll { $0.replaces(entry) }
            entries.players.append(entry)
            save(entries)
        }
    }

    /// Writes `entry` down, replacing an older one of the same kind for the same stream.
    public func record(_ entry: StreamJournalEntry) {
        entries.withLock { entries in
            entries.streams.removeAll { $0.replaces(entry) }
            entries.streams.append(entry)
            save(entries)
        }
    }

    /// Crosses out the stream entries `matching` says.
    public func forgetStreams(where matching: (StreamJournalEntry) -> Bool) {
        entries.withLock { entries in
            let before = entries.streams.count
            entries.streams.removeAll(where: matching)
            if entries.streams.count != before { save(entries) }
        }
    }

    /// Crosses out the change of `kind` made to `player` as owned by `owner`.
    public func forget(_ kind: JournalEntry.Kind, player: String, owner: String) {
        forget { $0.kind == kind && $0.player == player && $0.owner == owner }
    }

    /// Crosses out everything about `player` as owned by `owner` (it went away: nothing is left
    /// to undo).
    public func forgetAll(player: String, owner: String) {
        forget { $0.player == player && $0.owner == owner }
    }

    /// Crosses out the entries `matching` says.
    public func forget(where matching: (JournalEntry) -> Bool) {
        entries.withLock { entries in
            let before = entries.players.count
            entries.players.removeAll(where: matching)
            if entries.players.count != before { save(entries) }
        }
    }

    /// Called with the lock held.
    private func save(_ entries: Contents) {
        do {
            if entries.players.isEmpty && entries.streams.isEmpty {
                try file.remove()
            } else {
                try file.write(Self.text(of: entries.players, streams: entries.streams))
            }
        } catch {
            log("the journal of changes to other programs could not be written: \(error)")
        }
    }

    // MARK: The file

    /// The player entries in the file at `file` (none when it does not exist); lines that do not
    /// parse are skipped and reported through `log`.
    public static func read(_ file: StateFile = ChangeJournal.defaultFile, log: Log) -> [JournalEntry] {
        readAll(file, log: log).players
    }

    /// The stream entries in the file at `file`: kept by whoever replays the players' entries
    /// (the journal guard has no audio-server connection), for the next daemon.
    public static func readStreams(_ file: StateFile = ChangeJournal.defaultFile, log: Log) -> [StreamJournalEntry] {
        readAll(file, log: { _ in }).streams
    }

    /// Read line by line: a line with a NUL or bytes that are not UTF-8 is skipped alone, with its
    /// number in the log, and every readable entry beside it is kept (issue 24).
    private static func readAll(_ file: StateFile, log: Log) -> Contents {
        guard let lines = file.readLines(report: { log("\($0)") }) else { return Contents(players: [], streams: []) }
        var contents = Contents(players: [], streams: [])
        for (number, text) in lines.enumerated() {
            guard let text else {
                log("\(file.path):\(number + 1): not text (a NUL byte or bytes that are not UTF-8); skipped")
                continue
            }
            let line = Substring(text)
            let trimmed = line.hasSuffix("\r") ? line.dropLast() : line
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            if let entry = JournalEntry(line: trimmed) {
                contents.players.removeAll { $0.replaces(entry) }
                contents.players.append(entry)
            } else if let entry = StreamJournalEntry(line: trimmed) {
                contents.streams.removeAll { $0.replaces(entry) }
                contents.streams.append(entry)
            } else {
                log("\(file.path):\(number + 1): not a journal entry; skipped")
            }
        }
        return contents
    }

    static func text(of entries: [JournalEntry], streams: [StreamJournalEntry] = []) -> String {
        (["# mprisd: changes made to other programs, undone by the next mprisd if this one died"]
            + entries.map(\.line) + streams.map(\.line)).joined(separator: "\n")
    }
}
