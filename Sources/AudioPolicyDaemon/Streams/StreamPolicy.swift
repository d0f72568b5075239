import AppClassification
import AudioServer
import DBus
import MPRISDirectory
import PolicyJournal
import Posix
import SessionCore
import Synchronization

/// Applies sessions' ducking and interruptions to the audio-server streams of programs that do
/// not speak our API: the program `mprisd run` wraps (a session registered with `manageStreams`),
/// and MPRIS players whose `Volume` cannot duck them.
///
/// - A stream belongs to the managed session whose owner process is the stream's
///   `application.process.id` or the nearest of its ancestors that owns a session (the rule of
///   `PlayerStreamJoin.nearestOwner`; the process trees read once, shared with the players' join
///   through `StreamProcessTrees`; the owner's pid from the bus, `OwnerProcessIDs`).
/// - Ducked: each playback stream's volume, read just before, is journaled and scaled by
///   `duckRatio`; afterwards set back to exactly that value if the stream still has ours (a user
///   who changed it meanwhile wins). A new stream of a ducked session is ducked at once.
/// - Interrupted (sessions that `mutesOnInterruption`): playback streams are muted (journaled);
///   unmuted afterwards only if we muted them and they are still muted. Capture is left alone.
/// - Nothing outlives the daemon: every change is in the `ChangeJournal` before it is made and
///   crossed out when undone; `stop` undoes everything. After a crash, or a stream that ended
///   while changed, the server's restore database may hold our value for the stream's
///   `StreamRestoreKey`: its entry is written back with the user's value
///   (`StreamPolicy+RestoreDatabase`), and the next stream of that key that appears (or first
///   changes) with exactly our value is set right (`StreamPolicy+Recovery`).
///
/// Threads: every input (session events, inventory changes, registrations, pid answers) is
/// queued on one `SerialThread` and decided there in order, so the link's calls go out in
/// decision order; the state is behind a lock only for `streamReport`, read from elsewhere.
/// Idle, nothing runs.
public final class StreamPolicy: Sendable {
    public typealias Log = @Sendable (String) -> Void

    /// The duck ratio: a ducked stream's volume is the user's volume × this, on the server's
    /// (cubic) scale — the same ratio as for MPRIS players' `Volume` (`VolumeDuck`).
    public static let duckRatio = AudioPolicyDaemon.duckRatio

    let link: AudioServerLink
    let journal: ChangeJournal?
    let log: Log
    /// The changes not made because the journal cannot be written: a line each, five a minute
    /// (every event of the server decides again).
    let refusalLog = LogRateLimit()
    let owners: OwnerProcessIDs?
    let thread: SerialThread
    let state = Mutex(State())
    /// The link's changes not decided yet (written on the link's thread, taken on ours).
    let backlog = Mutex(ChangeBacklog())
    /// The streams' process trees, shared with the players' join (`PlayerStreams.trees`).
    let trees: StreamProcessTrees
    /// How long after a stream appears its volume changes are the server's, not the user's:
    /// WirePlumber's restore-stream applies a role's remembered volume as a change just after the
    /// stream appears (PulseAudio applies it at creation), possibly after we ducked it. Such a
    /// change is the user's volume for the role: the duck goes on from it (`serverSettling`).
    let serverSettling: Duration
    /// The time of the timed decisions (the implicit sessions' graces, settling): the link's by
    /// default, a driven one in tests.
    let clock: PolicyClock
    /// The default `serverSettling`: restore-stream's change came within 50 ms here; a second
    /// leaves room for a loaded machine, and no user changes a new stream's volume sooner.
    public static let defaultServerSettling: Duration = .seconds(1)
    /// WirePlumber's own pause on device loss, where the server is PipeWire (nil: not followed).
    let wirePlumber: WirePlumberSettings?

    /// A session whose streams we act on, or that only claims them (an MPRIS player whose
    /// `Volume` works: its streams are no app's implicit session).
    struct Managed: Sendable {
        /// Which streams are the session's.
        enum Streams: Sendable {
            /// Those of the owner's process tree (`pid`): a session registered with our API
            /// (`coversCapture`) or an MPRIS player (playback only).
            case processTree(coversCapture: Bool)
            /// Exactly these playback streams: an app's implicit session (`ImplicitPlan`).
            case implicit(AppKey, Set<StreamID>)
        }

        var number: UInt64
        var label: String
        var owner: String
        /// The owner's process id, once the bus answered.
        var pid: Int32?
        var streams: Streams = .processTree(coversCapture: true)
        /// Ducking lowers its streams' volume (false: a player ducked through `Volume`, a screen
        /// reader, which is never ducked).
        var ducksStreams = true
        var mutesOnInterruption: Bool
        var isDucked: Bool
        var isInterrupted: Bool
        /// Its activation waits for a call to end (`allowDelayedActivation`): its streams are
        /// muted meanwhile (G-CALLS).
        var isHeld = false
        /// Silent mode and the screen lock silence it (an app's ambient or soloAmbient implicit
        /// session, G-SILENT, G-UI-SOUNDS): its streams are muted while either is on — also when
        /// the lock refused its activation, so a notification sound that starts while locked is
        /// not heard either.
        var isSilenceable = false
        var isSilentMode = false
        var isLocked = false
        var events: EventSubscription?
        /// The engine's session, to tell it of a device it lost (nil: an implicit session, which
        /// nothing can pause).
        var engine: EngineSession?
        /// An MPRIS player's stand-in (WirePlumber 0.5 may pause it on device loss itself).
        var isMPRISPlayer = false

        /// Its streams are muted now: interrupted (if it mutes then), held for a call, silenced.
        var wantsMute: Bool {
            (isInterrupted && mutesOnInterruption) || isHeld || (isSilenceable && (isSilentMode || isLocked))
        }
    }

    /// A managed session in the engine.
    struct EngineSession: Sendable {
        var id: SessionID
        var system: AudioSystem
    }

    /// What we did to one stream.
    struct Applied: Sendable {
        /// The one duck rule (`VolumeDuck`), on the stream's volume.
        typealias Duck = VolumeDuck<ChannelVolume>

        var session: UInt64
        var key: StreamRestoreKey
        var duck: Duck?
        /// The user set another volume during this ducking: left alone until it ends.
        var userKeptVolume = false
        var muted = false
        /// The user unmuted it during this interruption: left alone until it ends.
        var userUnmuted = false
        /// How many times its duck was sent again (`verifyDuck`).
        var duckChecks = 0

        var isEmpty: Bool { duck == nil && !userKeptVolume && !muted && !userUnmuted }
    }

    /// Values we asked the server for that its events have not shown yet: until then they are
    /// the stream's values for every decision (a duck right after an undo reads the user's value,
    /// not ours still on its way back).
    struct Expected: Sendable {
        var volume: ChannelVolume?
        var muted: Bool?
    }

    struct State {
        var stopped = false
        var sessions: [UInt64: Managed] = [:]
        /// The inventory as last reported by the link.
        var inventory = AudioInventory()
        /// When each stream was first seen: see `serverSettling`.
        var appeared: [StreamID: ContinuousClock.Instant] = [:]
        /// Streams whose expected volume gave way to another value in the change being decided
        /// (`confirm`): that value may be the late event of an earlier request of ours.
        var superseded: Set<StreamID> = []
        /// Each stream's session now (for the report).
        var pairs: [StreamID: UInt64] = [:]
        var applied: [StreamID: Applied] = [:]
        var expected: [StreamID: Expected] = [:]
        /// Journaled changes whose stream is gone: repaired on the next stream of their key.
        var orphans: [StreamJournalEntry] = []
        /// Orphans taken over by a new stream of their key, until its first change settles them.
        var watching: [StreamID: [StreamJournalEntry]] = [:]
        /// Keys whose restore entry is being read and written; true: once more when done (an
        /// orphan of the key came meanwhile).
        var repairing: [StreamRestoreKey: Bool] = [:]
        /// Changes undone on streams that still exist: the server's restore database may not
        /// have taken the undo yet (WirePlumber stores asynchronously), so a stream that ends
        /// soon after leaves them as orphans that settle if the database holds the user's value.
        var undone: [StreamID: [StreamJournalEntry]] = [:]
        /// Orphans of undone changes: settled as soon as the database shows it is not ours.
        var settleIfClean: Set<StreamJournalEntry> = []
        /// Implicit sessions of apps without our API (`StreamPolicy+ImplicitSessions`).
        var implicit = ImplicitState()
        /// Where each session is audible, for device loss per stream; kept across a server
        /// restart (`AudibleSinks`).
        var audible = AudibleSinks()
        /// The streams WirePlumber's role-based policy ducks (`RoleBasedDucking`) that a duck of
        /// ours was left out for, said once in the log.
        var wirePlumberDucksLogged: Set<StreamID> = []
    }

    /// - Parameters:
    ///   - connection: the session bus, to learn the owners' process ids (nil: sessions are
    ///     given their pid with `manage`).
    ///   - journal: where every change is written before it is made.
    public init(link: AudioServerLink, connection: Connection?, journal: ChangeJournal?,
                log: @escaping Log, trees: StreamProcessTrees = StreamProcessTrees(),
                serverSettling: Duration = StreamPolicy.defaultServerSettling,
                wirePlumber: WirePlumberSettings? = nil, clock: PolicyClock? = nil) throws(PosixError) {
        self.link = link
        self.wirePlumber = wirePlumber
        self.journal = journal
        self.log = log
        self.trees = trees
        self.serverSettling = serverSettling
        self.clock = clock ?? .live(link)
        owners = connection.map(OwnerProcessIDs.init)
        thread = try SerialThread(name: "mprisd-streams")
    }

    /// What `AudioServerLink.start` should call with each change (on the link's thread; this
    /// only queues it). `lost`: the sinks (as the engine's ports) that went away in it
    /// (`ServerRouteFollower.follow`); the sessions that played there lose their device
    /// (`AudibleSinks`).
    /// Changes that come faster than they are decided wait folded together (`ChangeBacklog`).
    public func inventoryChanged(_ change: InventoryChange, lost: [AudioPort] = []) {
        guard backlog.withLock({ $0.add(change, lost: lost) }) else { return }
        thread.enqueue { [weak self] in self?.applyNextChange() }
    }

    /// The oldest change waiting (on the policy's thread: one job per change that waits on its own).
    private func applyNextChange() {
        guard let next = backlog.withLock({ $0.take() }) else { return }
        apply(next.change, lost: next.lost)
    }

    /// Undoes every change still in place, then stops deciding; the journal keeps only what
    /// could not be undone (streams gone since), for the next daemon. Waits (at most `patience`)
    /// until the server has taken the calls. Idempotent.
    public func stop(patience: Duration = .seconds(2)) {
        let outstanding = Outstanding()
        thread.enqueueAndWait { [self] in
            endImplicitSessions()
            let actions = state.withLock { state -> [StreamAction] in
                guard !state.stopped else { return [] }
                state.stopped = true
                let sessions = state.sessions.values
                state.sessions.removeAll()
                for session in sessions { session.events?.cancel() }
                return undoAll(&state)
            }
            perform(actions, outstanding: outstanding)
        }
        thread.stop()
        outstanding.wait(patience)
    }
}
