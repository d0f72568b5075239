import MPRISDirectory
import PolicyJournal
import SessionCore

/// One foreign MPRIS player as the policy sees it: its properties and what the policy did to it.
///
/// Pure state and decisions, no I/O: each input (properties read or changed, a session event, a
/// refused activation) returns the actions to carry out. The rules (design.md, "Policy daemon"):
/// - The session is active exactly while the player is `Playing`; only a *change* of the status
///   activates or deactivates it, so a repeated `Playing` during a pause we asked for cannot take
///   audio back.
/// - A pause the policy caused leaves the session interrupted (it is already inactive), so the
///   interruption's *ended* can still resume it.
/// - Interrupted → `Pause` (if Playing and CanPause), remembered as `pausedByPolicy`; *ended* with
///   shouldResume → `Play` only if the policy paused it; a player the user paused is never resumed.
///   *ended* without resume → the status is read afresh (the user may have resumed it, folded
///   into no signal), and a player found playing gets its session back.
/// - The `Playing` our resume brings activates after calls only: a call that began while the
///   resume was on its way queues the activation, and the player is paused again until that call
///   ends (`activationDelayed`) instead of being refused and left paused for good.
/// - Ducked → `Volume` × `duckFactor`, the exact prior value remembered and set back when the
///   ducking ends — unless the user changed the volume meanwhile (then theirs stays).
/// - The route lost the device it played on → `Pause` (never resumed).
struct ForeignPlayer: Sendable {
    /// The well-known name (`org.mpris.MediaPlayer2.mpv`).
    let busName: String
    /// Its unique name: every call goes there.
    let owner: String
    /// This appearance of the name; answers and events for an earlier one are dropped.
    let token: UInt64

    private(set) var properties = MPRISPlayerProperties()
    /// Its `Identity` (root interface), read once; nil until then or when it has none. Only a
    /// `player` rule looks at it (`PlayerMode`).
    var identity: String?
    /// `GetAll` answered (or failed): signals are applied from now on.
    private(set) var isLoaded = false
    /// The policy paused it and may resume it.
    private(set) var pausedByPolicy = false
    /// That pause is one a clean stop or a journal replay resumes: its cause was a client's
    /// session or a system condition, not another player the user started (that one is final).
    private(set) var pauseIsJournaled = false
    /// The policy sent `Play` to end its interruption, and the player has not said Playing since.
    private(set) var resumeSent = false
    /// Its session's activation after that resume is queued behind a call that began meanwhile:
    /// the engine grants it when the call ends (`.delayedActivation`).
    private(set) var waitsForCall = false
    /// Its `Volume` lowered (`VolumeDuck`: the one duck rule, also the streams').
    private(set) var duck: VolumeDuck<Double>?
    /// A volume other than ours and the one we lowered from was reported during this duck:
    /// the user chose one, which stays.
    private(set) var duckChangedByUser = false
    /// Ducking began and the player's volume is being read first: a player may already answer
    /// `Get` with a value it has not announced yet (mpv-mpris batches its signals), and the value
    /// to restore must be the one the user set last.
    private(set) var duckPending = false

    /// It is ducked through its audio-server streams (`StreamPolicy`), for the rest of its life:
    /// its stream was known when a duck began — the server's per-app volume, which the user sees
    /// and sets in the mixer, is then the one channel (Firefox applies `Volume` to that same
    /// stream volume, so lowering both would stack and rewrite the user's value) — or its
    /// `Volume` cannot duck it (missing, read-only or ignored).
    private(set) var duckByStream = false

    /// The duck ratio on its `Volume` (`duckRatio`, the streams' too).
    static let duckFactor = duckRatio

    /// Found by the daemon's first look at the bus (not started while it ran): if it plays, the
    /// user chose that before this daemon started, so it plays on beside the others.
    let foundAtStart: Bool

    init(busName: String, owner: String, token: UInt64, foundAtStart: Bool = false) {
        self.busName = busName
        self.owner = owner
        self.token = token
        self.foundAtStart = foundAtStart
    }

    var isPlaying: Bool { properties.playbackStatus == "Playing" }
    /// Unknown counts as yes: the player answers an error if it cannot.
    var canPause: Bool { properties.canPause ?? true }
    var canPlay: Bool { properties.canPlay ?? true }
    /// For status output.
    var statusText: String { properties.playbackStatus ?? "Stopped" }

    // MARK: Properties

    /// The first full read (`GetAll`; nil if it failed — signals still build the picture up).
    mutating func load(_ read: MPRISPlayerProperties?) -> [ForeignPlayerAction] {
        isLoaded = true
        if let read { properties = read }
        guard isPlaying else { return [] }
        return foundAtStart ? [.adopt] : [.activate]
    }

    /// A `PropertiesChanged` from the player.
    mutating func update(_ change: MPRISPlayerProperties) -> [ForeignPlayerAction] {
        guard isLoaded else { return [] }  // the pending GetAll already includes it
        let wasPlaying = isPlaying
        properties.merge(change)
        if let volume = change.volume, let current = duck, current.reading(volume) == .usersChoice {
            duckChangedByUser = true
        }
        guard wasPlaying != isPlaying else { return [] }
        let resumed = takeResume()
        if isPlaying {
            // Whoever started it (the user, or our Play), it plays now: nothing left to resume.
            return endPolicyPause() + [resumed ? .activateResumed : .activate]
        }
        return [.deactivate]
    }

    /// Whether the policy's `Play` is what made it play (consumed: asked once per resume).
    mutating func takeResume() -> Bool {
        defer { resumeSent = false }
        return resumeSent
    }

    /// Its activation after the policy resumed it was queued: a call began while the resume was
    /// on its way (a call app reopening its microphone, issue 24). Refused, it would be paused for
    /// good; queued, it is paused by the policy now — journaled like a call's pause — and played
    /// again when the engine grants the activation at the call's end.
    mutating func activationDelayed() -> [ForeignPlayerAction] {
        waitsForCall = true
        guard isPlaying else { return [] }
        guard canPause else { return [.log("cannot pause \(busName) (CanPause is false): a call began as it resumed")] }
        pausedByPolicy = true
        pauseIsJournaled = true
        return [.journal(.pause(cause: nil)), .send(.pause, reason: "a call began as it resumed; it resumes when the call ends")]
    }

    /// Activation was refused (a call owns audio): pause it again. If the session is still held
    /// interrupted, that interruption's *ended* may resume it later.
    mutating func activationRefused(_ error: SessionError, stillInterrupted: Bool) -> [ForeignPlayerAction] {
        guard isPlaying else { return [] }
        guard canPause else { return [.log("cannot pause \(busName) (CanPause is false): activation refused: \(error)")] }
        pausedByPolicy = stillInterrupted
        return [.send(.pause, reason: "activation refused: \(error)")]
    }

    // MARK: Session events

    /// An event of its session. `cause` names the interrupter for the log (`session 3`);
    /// `pauseEntry` is what the journal keeps of a pause it causes, nil for a pause that is final
    /// (another player took over).
    /// `streamsKnown`: its playback streams on the audio server are known now (a duck then goes
    /// through them, not through `Volume`).
    mutating func handle(_ event: SessionEvent, cause: String,
                         pauseEntry: JournalEntry.Change? = nil, streamsKnown: Bool = false) -> [ForeignPlayerAction] {
        switch event {
        case .interruption(.began):
            guard isPlaying else { return [] }
            guard canPause else { return [.log("cannot pause \(busName) (CanPause is false): interrupted by \(cause)")] }
            pausedByPolicy = true
            pauseIsJournaled = pauseEntry != nil
            // Written down before the Pause is sent: a daemon that dies now leaves the resume to
            // whoever replays the journal.
            return (pauseEntry.map { [.journal($0)] } ?? []) + [.send(.pause, reason: "interrupted by \(cause)")]
        case .interruption(.ended(let options)):
            guard pausedByPolicy else { return [] }
            let over = endPolicyPause()
            guard options.contains(.shouldResume) else {
                // The user may have resumed it meanwhile, and a player that batches its signals
                // (mpv-mpris, 100 ms) can fold our Pause and their Play into no change at all:
                // the status is read afresh, and a player found playing gets its session back.
                return over + [.log("\(busName) stays paused: interruption ended without resume"), .readStatus]
            }
            // Not checked against the cached status: our Pause may not be reported yet (mpv-mpris
            // batches its signals), and Play on a playing player does nothing.
            guard canPlay else { return over + [.log("cannot resume \(busName) (CanPlay is false)")] }
            resumeSent = true
            return [.send(.play, reason: "interruption ended")] + over
        case .delayedActivation(let outcome):
            guard waitsForCall else { return [] }
            waitsForCall = false
            // Granted: its session is active; a player with nothing to resume gives it back.
            guard pausedByPolicy else { return isPlaying ? [] : [.deactivate] }
            let over = endPolicyPause()
            guard case .granted = outcome else {
                return over + [.deactivate, .log("\(busName) stays paused: its activation after the call was refused")]
            }
            guard canPlay else { return over + [.deactivate, .log("cannot resume \(busName) (CanPlay is false)")] }
            return [.send(.play, reason: "the call ended")] + over
        case .ducking(.began):
            guard duck == nil, !duckPending, !duckByStream else { return [] }
            if streamsKnown {
                duckByStream = true
                return [.log("\(busName): ducked through its audio-server streams (the volume the mixer shows)"), .duckStreams]
            }
            guard properties.volume != nil else { return volumeUnusable("it has no Volume") }
            duckPending = true
            return [.readVolume]
        case .ducking(.ended):
            if duckPending {
                duckPending = false  // ended before the read came back: nothing was lowered
                return []
            }
            guard let current = duck else { return [] }
            duck = nil
            defer { duckChangedByUser = false }
            if duckChangedByUser {
                return [.unjournal(.volume),
                        .log("\(busName) not restored to volume \(ForeignPlayerCommand.format(current.found)): the user changed it")]
            }
            return [.send(.setVolume(current.found), reason: "ducking ended"), .unjournal(.volume)]
        case .routeChange(let change) where change.reason == .oldDeviceUnavailable:
            guard isPlaying else { return [] }
            guard canPause else { return [.log("cannot pause \(busName) (CanPause is false): its output went away")] }
            let gone = change.previousRoute.outputs.map(\.name).joined(separator: ", ")
            return [.pauseAtOnce(reason: "output \(gone.isEmpty ? "device" : gone) went away")]
        default:
            return []
        }
    }

    /// The fresh status read after an interruption ended (nil: the read failed, nothing changes).
    /// Unlike a signal, it acts on the session's state rather than on a change of status: a player
    /// found playing is activated even if the cached status already said so.
    mutating func statusRead(_ status: String?) -> [ForeignPlayerAction] {
        guard let status else { return [] }
        properties.merge(MPRISPlayerProperties(playbackStatus: status))
        return isPlaying ? [.activate] : [.deactivate]
    }

    /// Our `Pause` was not sent: asked afresh, the player said `status`, not Playing — another
    /// actor (WirePlumber, the user, the player itself) paused it a moment ago. The pause is not
    /// ours, so nothing resumes it later; its session follows what it said.
    mutating func pauseNotNeeded(status: String) -> [ForeignPlayerAction] {
        properties.merge(MPRISPlayerProperties(playbackStatus: status))
        return endPolicyPause() + (isPlaying ? [] : [.deactivate])
    }

    /// The fresh volume read for a ducking (nil: the read failed; the last announced value is used).
    mutating func volumeRead(_ volume: Double?) -> [ForeignPlayerAction] {
        guard duckPending else { return [] }
        duckPending = false
        guard let volume = volume ?? properties.volume else { return volumeUnusable("it has no Volume") }
        // Silent already: nothing to lower, nothing owed.
        guard let lowered = VolumeDuck(lowering: volume) else { return [] }
        duck = lowered
        duckChangedByUser = false
        return [.journal(.volume(found: volume, set: lowered.set)),
                .send(.setVolume(lowered.set), reason: "ducked (was \(ForeignPlayerCommand.format(volume)))"),
                .readBackVolume]
    }

    /// Setting the lowered `Volume` failed (read-only, "not supported"): nothing was lowered.
    mutating func volumeSetFailed(_ error: String) -> [ForeignPlayerAction] {
        guard duck != nil else { return [] }
        duck = nil
        return [.unjournal(.volume)] + volumeUnusable("setting its Volume failed (\(error))")
    }

    /// `Volume` read back after lowering it (nil: no answer, nothing is concluded). Still the
    /// value we lowered from: the player ignores `Volume`.
    mutating func volumeReadBack(_ volume: Double?) -> [ForeignPlayerAction] {
        guard let volume, let current = duck, !duckChangedByUser, current.isAudible,
              current.reading(volume) == .found else { return [] }
        duck = nil
        return [.unjournal(.volume)] + volumeUnusable("it ignores Volume (still \(ForeignPlayerCommand.format(volume)))")
    }

    /// From now on its streams are ducked instead of its `Volume`.
    private mutating func volumeUnusable(_ reason: String) -> [ForeignPlayerAction] {
        guard !duckByStream else { return [] }
        duckByStream = true
        return [.log("\(busName): \(reason); ducked through its audio-server streams instead"), .duckStreams]
    }

    /// The journal could not write `change` down (`because`: the state directory is full or
    /// read-only): the change is not made, since nobody could undo it after a crash (issue 24),
    /// and the player is as if it had never been decided. The next decision tries again.
    mutating func journalRefused(_ change: JournalEntry.Change, because reason: String?) -> [ForeignPlayerAction] {
        let why = ChangeJournal.refusal(reason)
        switch change {
        case .volume:
            duck = nil
            duckChangedByUser = false
            return [.log("\(busName) not ducked: \(why)")]
        case .pause:
            pausedByPolicy = false
            pauseIsJournaled = false
            return [.log("\(busName) not paused: \(why)")]
        }
    }

    /// The policy's pause is over (resumed, given up, or the user played it): nothing of it is
    /// left to undo.
    private mutating func endPolicyPause() -> [ForeignPlayerAction] {
        guard pausedByPolicy else { return [] }
        pausedByPolicy = false
        defer { pauseIsJournaled = false }
        return pauseIsJournaled ? [.unjournal(.pause)] : []
    }

    /// What to undo when the tracker stops (the daemon stops cleanly) while the player is still
    /// there: its volume, and a pause that was not final is resumed — nothing the daemon did may
    /// outlive it.
    mutating func undo() -> [ForeignPlayerAction] {
        duckPending = false
        var actions: [ForeignPlayerAction] = []
        if let current = duck {
            duck = nil
            if !duckChangedByUser { actions.append(.send(.setVolume(current.found), reason: "mprisd stopped")) }
            duckChangedByUser = false
            actions.append(.unjournal(.volume))
        }
        if pausedByPolicy {
            let resume = pauseIsJournaled && canPlay
            if resume { actions.append(.send(.play, reason: "mprisd stopped")) }
            actions += endPolicyPause()
        }
        return actions
    }

    /// Volumes equal up to what a player's own storage rounds away (mpv keeps a float percentage).
    static func same(_ a: Double, _ b: Double) -> Bool { a.isSame(as: b) }
}
