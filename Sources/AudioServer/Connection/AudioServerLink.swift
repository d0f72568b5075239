import Posix
import Synchronization

/// The daemon's connection to the audio server (PulseAudio, or PipeWire through pipewire-pulse),
/// through libpulse driven by a thread of ours (`PulseLoop`): it keeps `inventory` current from
/// the server's events and reports each change (`InventoryChange`); it sets other clients'
/// stream volumes and mutes.
///
/// No server, or the server goes away: it says so once through `log`, watches the runtime
/// directory with inotify and connects again when the socket appears (never creating that
/// directory itself); on reconnect everything is read afresh.
///
/// Connecting right when a server creates its socket can be refused (the socket file exists
/// before the server listens): the link then tries again at the next inotify event about the
/// socket or, if none comes, after 100 ms, 200 ms, 400 ms … 3.2 s, 5 s (seven tries), then waits
/// for inotify alone. A new socket file starts the series again.
public final class AudioServerLink: Sendable {
    public typealias Log = @Sendable (String) -> Void
    public typealias Completion = @Sendable (Bool) -> Void

    public let address: ServerAddress
    private let log: Log
    let shared = LinkShared()
    private let running = Mutex<(loop: PulseLoop, core: LinkCore)?>(nil)
    private let ownViewHasNoDefaults: Bool
    private let retryDelays: [Int64]

    public init(address: ServerAddress = .fromEnvironment(), log: @escaping Log) {
        self.address = address
        self.log = log
        ownViewHasNoDefaults = false
        retryDelays = LinkCore.standardRetryDelays
    }

    /// Tests only: a link whose own client view never names a default device, as a
    /// pipewire-pulse client that missed WirePlumber's choice sees it (`LinkCore.askSecondOpinion`);
    /// and one whose backoff after a refused connection is `retryDelays` (nil: the standard one).
    package init(address: ServerAddress, ownViewHasNoDefaults: Bool, retryDelays: [Duration]? = nil,
                 log: @escaping Log) {
        self.address = address
        self.log = log
        self.ownViewHasNoDefaults = ownViewHasNoDefaults
        self.retryDelays = retryDelays.map { delays in
            delays.map { $0.components.seconds * 1_000_000_000 + $0.components.attoseconds / 1_000_000_000 }
        } ?? LinkCore.standardRetryDelays
    }

    /// Starts the link's thread; `onChange` runs on it after every change (keep it short: no
    /// blocking calls). Connects at once if the server is there, else when it appears.
    public func start(onChange: @escaping @Sendable (InventoryChange) -> Void) throws(PosixError) {
        let address = self.address
        let log = self.log
        let shared = self.shared
        let ownViewHasNoDefaults = self.ownViewHasNoDefaults
        let retryDelays = self.retryDelays
        try running.withLock { (slot: inout (loop: PulseLoop, core: LinkCore)?) throws(PosixError) in
            guard slot == nil else { return }
            let loop = try PulseLoop()
            let core = LinkCore(loop: loop, address: address, log: log, shared: shared,
                                ownViewHasNoDefaults: ownViewHasNoDefaults, retryDelays: retryDelays, onChange: onChange)
            try loop.start()
            loop.post { core.begin() }
            slot = (loop, core)
        }
    }

    /// Disconnects and ends the thread; no `onChange` runs after it returns. Idempotent.
    public func stop() {
        guard let (loop, core) = running.withLock({ slot in
            defer { slot = nil }
            return slot
        }) else { return }
        loop.stop(last: { core.shutDown() })
    }

    deinit {
        stop()
    }

    /// The inventory now (empty, `server == nil`, while not connected).
    public var inventory: AudioInventory { shared.inventory.withLock { $0 } }

    /// Whether the link is connected to a server now.
    public var isConnected: Bool { inventory.server != nil }

    /// Why there is no server now ("no server at /run/user/1000/pulse/native"), nil when connected.
    public var absenceReason: String? { shared.absence.withLock { $0 } }

    /// How many connections the link has begun (`pa_context_connect`), refused ones included.
    package var connectionAttempts: Int { shared.attempts.withLock { $0 } }

    /// Sets a stream's volume (`pa_context_set_sink_input_volume` / `…_source_output_volume`);
    /// `completion` gets whether the server accepted it, on the link's thread.
    public func setVolume(_ stream: StreamID, to volume: ChannelVolume, completion: @escaping Completion = { _ in }) {
        onLoop(else: completion) { $0.setVolume(stream, volume, completion) }
    }

    /// Mutes or unmutes a stream (`pa_context_set_sink_input_mute` / `…_source_output_mute`).
    public func setMute(_ stream: StreamID, _ muted: Bool, completion: @escaping Completion = { _ in }) {
        onLoop(else: completion) { $0.setMute(stream, muted, completion) }
    }

    /// Runs `job` on the link's thread once `delay` has passed, as one of its loop's timers: no
    /// thread of its own and no wake-up before then. Nil when the link is not running (then
    /// nothing happens). The job runs whether or not a server is connected.
    public func after(_ delay: Duration, _ job: @escaping @Sendable () -> Void) -> LoopTimer? {
        guard let (loop, _) = running.withLock({ $0 }) else { return nil }
        return loop.after(delay, job)
    }

    /// Runs `work` on the link's thread while connected; otherwise `completion(false)` at once,
    /// on the caller's thread.
    func onLoop(else completion: @escaping Completion, _ work: @escaping @Sendable (LinkCore) -> Void) {
        guard isConnected, let (loop, core) = running.withLock({ $0 }) else { return completion(false) }
        loop.post { work(core) }
    }
}

/// What the link's thread publishes for everyone else.
final class LinkShared: Sendable {
    let inventory = Mutex(AudioInventory())
    let absence = Mutex<String?>("not started")
    let attempts = Mutex(0)
}
