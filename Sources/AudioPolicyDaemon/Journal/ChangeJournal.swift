import Synchronization
import SystemContext

/// The daemon's journal of what it changed in other programs (`$XDG_STATE_HOME/mprisd/journal`):
/// a volume it lowered (and the value it found), a pause it caused that may be resumed.
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
    private let entries: Mutex<[JournalEntry]>

    /// The journal's usual place.
    public static var defaultFile: StateFile { StateFile(named: "journal") }

    /// A journal kept in `file`, starting with `entries` (written at once, so the file says
    /// exactly that). `log` hears about a file that cannot be written.
    public init(file: StateFile = ChangeJournal.defaultFile, entries: [JournalEntry] = [], log: @escaping Log) {
        self.file = file
        self.log = log
        self.entries = Mutex(entries)
        self.entries.withLock { save($0) }
    }

    /// What the journal holds now.
    public var current: [JournalEntry] { entries.withLock { $0 } }

    /// Writes `entry` down, replacing an older one of the same kind for the same player.
    public func record(_ entry: JournalEntry) {
        entries.withLock { entries in
            entries.removeAll { $0.replaces(entry) }
            entries.append(entry)
            save(entries)
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
            let before = entries.count
            entries.removeAll(where: matching)
            if entries.count != before { save(entries) }
        }
    }

    /// Called with the lock held.
    private func save(_ entries: [JournalEntry]) {
        do {
            if entries.isEmpty {
                try file.remove()
            } else {
                try file.write(Self.text(of: entries))
            }
        } catch {
            log("the journal of changes to other programs could not be written: \(error)")
        }
    }

    // MARK: The file

    /// The entries in the file at `file` (none when it does not exist); lines that do not parse
    /// are skipped and reported through `log`.
    public static func read(_ file: StateFile = ChangeJournal.defaultFile, log: Log) -> [JournalEntry] {
        guard let text = file.read() else { return [] }
        var entries: [JournalEntry] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.hasSuffix("\r") ? line.dropLast() : line
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard let entry = JournalEntry(line: trimmed) else {
                log("\(file.path):\(number + 1): not a journal entry; skipped")
                continue
            }
            entries.removeAll { $0.replaces(entry) }
            entries.append(entry)
        }
        return entries
    }

    static func text(of entries: [JournalEntry]) -> String {
        (["# mprisd: changes made to other programs, undone by the next mprisd if this one died"]
            + entries.map(\.line)).joined(separator: "\n")
    }
}
