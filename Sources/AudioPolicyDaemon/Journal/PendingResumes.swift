import DBus
import MPRISDirectory
import PolicyJournal
import Synchronization

/// Pauses from a dead daemon's journal whose cause is still on the bus: a call that goes on after
/// the daemon died keeps the music paused, and the music is resumed (if still paused) the moment
/// the caller's name goes — the caller hung up, or exited.
///
/// Each cause is followed with `NameOwnerChanged` (no polling); the journal entry is crossed out
/// once its pause is resumed or found over. Used by a starting daemon for what it adopted from
/// the journal, and by the journal guard after the daemon died.
///
/// Thread safety: state behind one lock, never held while calling the bus.
public final class PendingResumes: Sendable {
    public typealias Log = @Sendable (String) -> Void

    private let connection: Connection
    private let journal: ChangeJournal
    private let log: Log
    private let onEmpty: @Sendable () -> Void

    private struct State {
        var waiting: [JournalEntry] = []
        var watches: [String: SignalSubscription] = [:]
        var stopped = false
    }
    private let state = Mutex(State())

    /// Follows the causes of `waiting` (pauses in `journal`); `onEmpty` runs once none is left.
    public init(connection: Connection, journal: ChangeJournal, waiting: [JournalEntry],
                log: @escaping Log, onEmpty: @escaping @Sendable () -> Void = {}) {
        self.connection = connection
        self.journal = journal
        self.log = log
        self.onEmpty = onEmpty
        state.withLock { $0.waiting = waiting }
    }

    /// How many pauses still wait.
    public var count: Int { state.withLock { $0.waiting.count } }

    /// Starts following each cause; one already gone resumes its pauses at once.
    public func start() {
        let causes = Set(state.withLock { $0.waiting.compactMap(Self.cause) })
        if causes.isEmpty { return onEmpty() }
        for cause in causes { follow(cause) }
    }

    /// Stops following; what still waits stays in the journal.
    public func stop() {
        let watches = state.withLock { state in
            state.stopped = true
            defer { state.watches.removeAll() }
            return Array(state.watches.values)
        }
        for watch in watches { watch.cancel() }
    }

    /// The entries still waiting, taken out (a clean stop resumes them itself).
    public func takeAll() -> [JournalEntry] {
        stop()
        return state.withLock { state in
            defer { state.waiting.removeAll() }
            return state.waiting
        }
    }

    private static func cause(of entry: JournalEntry) -> String? {
        if case .pause(let cause) = entry.change { return cause }
        return nil
    }

    /// Watches `cause` leave the bus (`watchNameOwner`: its current owner first, then every
    /// change; a unique name never comes back, so once gone is gone for good).
    private func follow(_ cause: String) {
        connection.watchNameOwner(cause, { [weak self] owner in
            if owner == nil { self?.causeGone(cause) }
        }, completion: { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let watch):
                let kept = self.state.withLock { state -> Bool in
                    guard !state.stopped else { return false }
                    state.watches[cause] = watch
                    return true
                }
                if !kept { watch.cancel() }
            case .failure(let error):
                // Cannot wait for it: better resumed now than paused for good.
                self.log("journal: cannot follow \(cause) (\(error)); resuming what it paused")
                self.causeGone(cause)
            }
        })
    }

    /// `cause` left the bus: every pause it held is resumed if the player is still paused.
    private func causeGone(_ cause: String) {
        let (entries, watch) = state.withLock { state -> ([JournalEntry], SignalSubscription?) in
            guard !state.stopped else { return ([], nil) }
            let mine = state.waiting.filter { Self.cause(of: $0) == cause }
            state.waiting.removeAll { Self.cause(of: $0) == cause }
            return (mine, state.watches.removeValue(forKey: cause))
        }
        watch?.cancel()
        guard !entries.isEmpty else { return }
        log("journal: \(cause) is gone")
        let left = Mutex(entries.count)
        for entry in entries {
            resume(entry) { [weak self] in
                guard let self else { return }
                self.journal.forget(.pause, player: entry.player, owner: entry.owner)
                let last = left.withLock { count -> Bool in
                    count -= 1
                    return count == 0
                }
                if last, self.count == 0 { self.onEmpty() }
            }
        }
    }

    /// `Play` if the player (its unique name: never whoever took the well-known name since) is
    /// still `Paused`; then `done`.
    private func resume(_ entry: JournalEntry, done: @escaping @Sendable () -> Void) {
        connection.call(ForeignPlayerQuery.property("PlaybackStatus", of: entry.owner), timeout: .seconds(5)) { [connection, log] result in
            guard case .success(let reply) = result, case .variant(.string("Paused"))? = reply.body.first else {
                log("journal: \(entry.player) is no longer paused (or gone); not resumed")
                return done()
            }
            connection.call(ForeignPlayerCommand.play.message(to: entry.owner), timeout: .seconds(5)) { result in
                switch result {
                case .success: log("journal: resumed \(entry.player): the pause mprisd caused is over")
                case .failure(let error): log("journal: could not have \(entry.player) play: \(error)")
                }
                done()
            }
        }
    }
}
