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
/// A change that cannot be written down is not made (issue 24: with the state directory full or
/// read-only the daemon warned and ducked all the same, and after a kill -9 nobody knew to give
/// the volume back): `record` says whether the entry is in the file, and the callers make the
/// change only then. The alternative — holding the entries in the journal guard's memory — was
/// weighed and left: the guard cannot reach the audio server (stream entries would still be
/// lost), and a guard killed with the daemon (the unit's cgroup) would lose the players' too.
/// Each later change tries the file again, so the policy acts again once there is room.
///
/// Thread safety: the entries and every write of the file are behind one lock; a write is a
/// few hundred bytes and one `fsync`, done on whichever thread made the decision.
public final class ChangeJournal: Sendable {
    public typealias Log = @Sendable (String) -> Void

    public let file: StateFile
    private let log: Log
    private let entries: Mutex<Contents>
    /// Why the last write failed; nil once one succeeds (for `status`).
    private let failure = Mutex<String?>(nil)

    /// Everything the file holds: the players' entries and the streams'.
    private struct Contents {
        var players: [JournalEntry] = []
        var streams: [StreamJournalEntry] = []
        /// False until the owner may write the file (`init(unopened:)`, then `open`).
        var isOpen = true
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
        self.entries.withLock { _ = save($0) }
    }

    /// A journal in `file` that holds nothing and refuses every entry until `open`: the daemon's,
    /// made with the parts that report on it before the daemon owns its name — only the one
    /// owner may read what a dead predecessor left and write the file (`DaemonJournal`). A
    /// change asked for meanwhile is refused like one the disk refuses, so it is not made.
    public init(unopened file: StateFile = ChangeJournal.defaultFile, log: @escaping Log) {
        self.file = file
        self.log = log
        entries = Mutex(Contents(isOpen: false))
    }

    /// Starts keeping the file, with `entries` and `streams` (written at once, so the file says
    /// exactly that). Once only; a journal made open ignores it.
    public func open(entries players: [JournalEntry], streams: [StreamJournalEntry]) {
        entries.withLock { contents in
            guard !contents.isOpen else { return }
            contents = Contents(players: players, streams: streams)
            save(contents)
        }
    }

    /// What the journal holds now about players.
    public var current: [JournalEntry] { entries.withLock { $0.players } }

    /// What the journal holds now about audio-server streams.
    public var currentStreams: [StreamJournalEntry] { entries.withLock { $0.streams } }

    /// Why the journal cannot be written now (the last write's error), nil while it can.
    public var problem: String? {
        guard entries.withLock({ $0.isOpen }) else { return "not open yet" }
        return failure.withLock { $0 }
    }

    /// Writes `entry` down, replacing an older one of the same kind for the same player. False:
    /// the file could not be written, the journal is as before, and the change must not be made.
    @discardableResult
    public func record(_ entry: JournalEntry) -> Bool {
        commit { contents in
            contents.players.removeAll { $0.replaces(entry) }
            contents.players.append(entry)
        }
    }

    /// Writes `entry` down, replacing an older one of the same kind for the same stream. False:
    /// the file could not be written, the journal is as before, and the change must not be made.
    @discardableResult
    public func record(_ entry: StreamJournalEntry) -> Bool {
        commit { contents in
            contents.streams.removeAll { $0.replaces(entry) }
            contents.streams.append(entry)
        }
    }

    /// The entries with `change` applied, kept only once the file says so.
    private func commit(_ change: (inout Contents) -> Void) -> Bool {
        entries.withLock { entries in
            guard entries.isOpen else { return false }
            var next = entries
            change(&next)
            guard save(next) else { return false }
            entries = next
            return true
        }
    }

    /// The log line's reason for a change not made because its entry could not be written.
    public static func refusal(_ problem: String?) -> String {
        "the journal of changes cannot be written (\(problem ?? "it could not be written")), "
            + "and a change nobody could undo after a crash is not made"
    }

    /// Crosses out the stream entries `matching` says.
    public func forgetStreams(where matching: (StreamJournalEntry) -> Bool) {
        entries.withLock { entries in
            guard entries.isOpen else { return }
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
            guard entries.isOpen else { return }
            let before = entries.players.count
            entries.players.removeAll(where: matching)
            if entries.players.count != before { save(entries) }
        }
    }

    /// Called with the lock held. A crossing-out that cannot be written leaves the old entry in
    /// the file: replaying it later is safe (the replay restores only a value that is still ours).
    @discardableResult
    private func save(_ entries: Contents) -> Bool {
        do {
            if entries.players.isEmpty && entries.streams.isEmpty {
                try file.remove()
            } else {
                try file.write(Self.text(of: entries.players, streams: entries.streams))
            }
            failure.withLock { $0 = nil }
            return true
        } catch {
            failure.withLock { $0 = "\(error)" }
            log("the journal of changes to other programs could not be written: \(error)")
            return false
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
