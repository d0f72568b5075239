import DBus
import MPRISDirectory
import PolicyJournal
import RemoteControl
import SessionCore

/// Carrying out `ForeignPlayerAction`s, outside the tracker's lock.
extension ForeignPlayerTracker {
    /// Performs `actions` for the appearance `token` of `name`. `owner` is given for a player no
    /// longer in the table (being dropped); otherwise it is looked up, and actions for a player
    /// that went away meanwhile are skipped. A journal entry that cannot be written cancels the
    /// change it comes before — the rest of the batch but its log lines (`ChangeJournal`).
    func perform(_ actions: [ForeignPlayerAction], for name: String, token: UInt64, owner: String? = nil) {
        var unjournaled = false
        for action in actions {
            if unjournaled, !action.isLogLine { continue }
            switch action {
            case .activate:
                activate(name, token: token)
            case .activateResumed:
                activate(name, token: token, options: .allowDelayedActivation)
            case .adopt:
                activate(name, token: token, options: .alongsideOthers)
            case .deactivate:
                // A session the policy interrupted is inactive already and must stay interrupted
                // (its *ended* may resume the player): only an active one is deactivated, and
                // without notify-others (a player stopping tells nobody to resume).
                guard let session = session(of: name, token: token), session.isActive else { continue }
                _ = try? session.setActive(false)
            case .send(let command, let reason):
                guard let target = owner ?? self.owner(of: name, token: token) else { continue }
                send(command, to: target, name: name, token: token, reason: reason)
            case .pauseAtOnce(let reason):
                guard let target = owner ?? self.owner(of: name, token: token) else { continue }
                send(.pause, to: target, name: name, token: token, reason: reason, faithfully: false)
            case .readVolume:
                guard let target = owner ?? self.owner(of: name, token: token) else { continue }
                readVolume(of: target, name: name, token: token)
            case .readBackVolume:
                guard let target = owner ?? self.owner(of: name, token: token) else { continue }
                read("Volume", of: target, name: name, token: token) { value, player in
                    guard case .double(let volume)? = value else { return player.volumeReadBack(nil) }
                    return player.volumeReadBack(volume)
                }
            case .duckStreams:
                duckThroughStreams(name, token: token)
            case .readStatus:
                guard let target = owner ?? self.owner(of: name, token: token) else { continue }
                readStatus(of: target, name: name, token: token)
            case .journal(let change):
                guard let target = owner ?? self.owner(of: name, token: token) else { continue }
                guard let journal, !journal.record(JournalEntry(player: name, owner: target, change: change)) else { continue }
                unjournaled = true
                let more = modify(name, token) { $0.player.journalRefused(change, because: journal.problem) } ?? []
                perform(more, for: name, token: token, owner: owner)
            case .unjournal(let kind):
                guard let target = owner ?? self.owner(of: name, token: token) else { continue }
                journal?.forget(kind, player: name, owner: target)
            case .log(let line):
                log(line)
            }
        }
    }

    /// The player started playing: its session activates, which interrupts the non-mixable
    /// session playing so far (the engine's rule). Refused (a call owns audio): pause it again.
    private func activate(_ name: String, token: UInt64, options: ActivationOptions = []) {
        guard let session = session(of: name, token: token), !session.isActive else { return }
        do {
            guard try session.setActive(true, options: options) == .delayed else { return }
            let more = modify(name, token) { $0.player.activationDelayed() } ?? []
            perform(more, for: name, token: token)
        } catch {
            let stillInterrupted = session.isInterrupted
            let more = modify(name, token) { $0.player.activationRefused(error, stillInterrupted: stillInterrupted) } ?? []
            perform(more, for: name, token: token)
        }
    }

    /// Sends `command` to the player's unique name; the answer (or its absence, after the
    /// timeout) is only logged — nothing ever waits for a player.
    ///
    /// After a resume the session is activated if the player already reports `Playing`: a player
    /// that batches its signals (mpv-mpris, 100 ms) may fold our Pause and Play into no change at
    /// all, and then no status change would ever activate it.
    ///
    /// A `Pause` is the faithful one (`MPRISRemote.pauseIfPlaying`) unless `faithfully` is false
    /// (the privacy pause, `ForeignPlayerAction.pauseAtOnce`): sent only to a player that says
    /// Playing when asked now, so a player whose Pause toggles is never started by it and one
    /// another actor has just paused is not paused twice (nor resumed by us later).
    private func send(_ command: ForeignPlayerCommand, to owner: String, name: String, token: UInt64,
                      reason: String, faithfully: Bool = true) {
        if command == .pause, faithfully { return pause(owner, name: name, token: token, reason: reason) }
        connection.call(command.message(to: owner), timeout: Self.callTimeout) { [weak self, log] result in
            switch result {
            case .success:
                log("\(command) \(name): \(reason)")
                if command == .play, let self,
                   case let resumed?? = self.modify(name, token, { $0.player.isPlaying ? $0.player.takeResume() : nil }) {
                    self.activate(name, token: token, options: resumed ? .allowDelayedActivation : [])
                }
            case .failure(let error):
                log("could not have \(name) \(command.verb) (\(reason)): \(error)")
                guard case .setVolume = command, let self else { return }
                let more = self.modify(name, token) { $0.player.volumeSetFailed(error.name) } ?? []
                self.perform(more, for: name, token: token)
            }
        }
    }

    private func pause(_ owner: String, name: String, token: UInt64, reason: String) {
        MPRISRemote(connection: connection, owner: owner, timeout: Self.callTimeout).pauseIfPlaying { [weak self, log] outcome in
            switch outcome {
            case .sent:
                log("paused \(name): \(reason)")
            case .notPlaying(let status):
                log("\(name) not paused (\(reason)): it says \(status)")
                guard let self else { return }
                let more = self.modify(name, token) { $0.player.pauseNotNeeded(status: status) } ?? []
                self.perform(more, for: name, token: token)
            case .failed(let error):
                log("could not have \(name) pause (\(reason)): \(error)")
            }
        }
    }

    /// Reads `Volume` for a ducking; a player that does not answer in time is ducked from the
    /// last announced value.
    private func readVolume(of owner: String, name: String, token: UInt64) {
        read("Volume", of: owner, name: name, token: token) { value, player in
            guard case .double(let volume)? = value else { return player.volumeRead(nil) }
            return player.volumeRead(MPRISPlayerProperties.saneVolume(volume))
        }
    }

    /// Reads `PlaybackStatus` after an interruption ended; a player that does not answer keeps
    /// the status last announced.
    private func readStatus(of owner: String, name: String, token: UInt64) {
        read("PlaybackStatus", of: owner, name: name, token: token) { value, player in
            guard case .string(let status)? = value else { return player.statusRead(nil) }
            return player.statusRead(status)
        }
    }

    /// Gets one property of the player (nil on an error reply, a timeout or a non-variant answer)
    /// and hands it to `apply` on the player still tracked under `token`, then carries out what
    /// that decided.
    func read(_ property: String, of owner: String, name: String, token: UInt64,
                      _ apply: @escaping @Sendable (DBusValue?, inout ForeignPlayer) -> [ForeignPlayerAction]) {
        connection.call(ForeignPlayerQuery.property(property, of: owner), timeout: Self.callTimeout) { [weak self] result in
            guard let self else { return }
            var value: DBusValue?
            if case .success(let reply) = result, case .variant(let inner)? = reply.body.first { value = inner }
            let more = modify(name, token) { apply(value, &$0.player) } ?? []
            perform(more, for: name, token: token)
        }
    }

    private func owner(of name: String, token: UInt64) -> String? {
        state.withLock { state in
            guard let tracked = state.tracked[name], tracked.player.token == token else { return nil }
            return tracked.player.owner
        }
    }
}

extension ForeignPlayerCommand {
    /// The infinitive for failure lines ("could not have … pause").
    var verb: String {
        switch self {
        case .pause: "pause"
        case .play: "play"
        case .setVolume(let volume): "set its volume to \(Self.format(volume))"
        }
    }
}
