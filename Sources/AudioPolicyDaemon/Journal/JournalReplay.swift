import DBus
import MPRISDirectory
import PolicyJournal

/// Undoes what a dead daemon's journal says it changed in other programs, as far as the rules
/// allow and the programs still are as we left them:
/// - a player whose name has another owner now (it exited, or exited and started again) has
///   nothing of ours left: the entry is dropped;
/// - a volume is set back to the value found only while the player still has the value we set
///   (the user may have chosen another one since) — so a ducked value is never taken for the
///   user's and ducked again;
/// - a pause is resumed (`Play`) only while the player is still `Paused` (the user may have
///   played or stopped it since) and once its cause is gone: an interrupting client still on the
///   bus keeps the player paused (`waiting`) until it goes (`PendingResumes`).
///
/// Synchronous (each call waits at most `timeout`): it runs before the daemon serves, or in the
/// journal guard, never on a connection's own thread.
public struct JournalReplay: Sendable {
    public typealias Log = @Sendable (String) -> Void

    let connection: Connection
    let log: Log
    /// How long a player (or the bus) gets to answer each call.
    var timeout: Duration = .seconds(1)

    public init(connection: Connection, log: @escaping Log) {
        self.connection = connection
        self.log = log
    }

    /// Replays `entries`; returns the pauses that wait for their cause to go. With
    /// `ignoringCauses`, no pause waits (a clean stop undoes everything).
    public func run(_ entries: [JournalEntry], ignoringCauses: Bool = false) -> [JournalEntry] {
        var waiting: [JournalEntry] = []
        for entry in entries {
            guard nameOwner(entry.player) == entry.owner else {
                log("journal: \(entry.player) (\(entry.owner)) is gone; nothing to undo")
                continue
            }
            switch entry.change {
            case .volume(let found, let set):
                restoreVolume(of: entry, found: found, set: set)
            case .pause(let cause):
                if !ignoringCauses, let cause, nameOwner(cause) != nil {
                    waiting.append(entry)
                    log("journal: \(entry.player) stays paused until \(cause) is gone")
                } else {
                    resume(entry)
                }
            }
        }
        return waiting
    }

    private func restoreVolume(of entry: JournalEntry, found: Double, set: Double) {
        guard case .double(let current)? = property("Volume", of: entry.owner) else {
            return log("journal: cannot read the volume of \(entry.player); left as it is")
        }
        guard ForeignPlayer.same(current, set) else {
            return log("journal: \(entry.player) keeps volume \(ForeignPlayerCommand.format(current)): the user changed it")
        }
        send(.setVolume(found), to: entry, reason: "restored after mprisd stopped (it had set \(ForeignPlayerCommand.format(set)))")
    }

    /// `Play` if the player is still paused.
    func resume(_ entry: JournalEntry) {
        guard case .string("Paused")? = property("PlaybackStatus", of: entry.owner) else {
            return log("journal: \(entry.player) is no longer paused; not resumed")
        }
        send(.play, to: entry, reason: "the pause mprisd caused is over")
    }

    private func send(_ command: ForeignPlayerCommand, to entry: JournalEntry, reason: String) {
        do {
            _ = try connection.callAndWait(command.message(to: entry.owner), timeout: timeout)
            log("journal: \(command) \(entry.player): \(reason)")
        } catch {
            log("journal: could not have \(entry.player) \(command.verb): \(error)")
        }
    }

    private func property(_ name: String, of owner: String) -> DBusValue? {
        guard let reply = try? connection.callAndWait(ForeignPlayerQuery.property(name, of: owner), timeout: timeout),
              case .variant(let value)? = reply.body.first else { return nil }
        return value
    }

    /// The unique name owning `name` (itself, for a unique name still connected); nil if none.
    private func nameOwner(_ name: String) -> String? {
        let call = Message.methodCall(destination: BusDaemon.name, path: BusDaemon.path,
                                      interface: BusDaemon.interface, member: "GetNameOwner",
                                      body: [.string(name)])
        guard let reply = try? connection.callAndWait(call, timeout: timeout),
              case .string(let owner)? = reply.body.first, !owner.isEmpty else { return nil }
        return owner
    }
}
