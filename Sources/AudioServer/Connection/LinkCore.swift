import CPulse
import Posix

/// The link's state on its loop's thread: the libpulse context, the inventory being kept, the
/// socket watch and the retry timer. Reached from libpulse's callbacks through their `userdata`
/// (this object, unretained: the link keeps it until the thread has ended).
final class LinkCore: @unchecked Sendable {  // invariant: touched only on the loop's thread (posted closures and libpulse callbacks)
    enum Phase {
        /// No context: waiting for the socket (or a retry).
        case idle
        /// `pa_context_connect` called, not ready yet.
        case connecting
        /// Ready; `pending` initial lists still to complete before `.connected` is reported.
        case listing(pending: Int)
        case connected
    }

    let loop: PulseLoop
    let address: ServerAddress
    let log: AudioServerLink.Log
    let shared: LinkShared
    var onChange: (@Sendable (InventoryChange) -> Void)?

    var context: OpaquePointer?
    var phase = Phase.idle
    /// The inventory as the server's events leave it (published when `.connected`).
    var working = AudioInventory()
    var rawStreams: [StreamID: RawStream] = [:]
    var clients: [UInt32: [String: String]] = [:]
    var streamsByClient: [UInt32: Set<StreamID>] = [:]
    /// Streams not followed: past their client's quota (`AudioServerLink+Quota`).
    var overQuota: Set<StreamID> = []
    /// The clients whose quota was named in the log.
    var quotaLogged: Set<UInt32> = []
    var operations: [ObjectIdentifier: PendingOperation] = [:]

    var watch: ServerSocketWatch?
    var retryTimer: TimeEvent?
    /// Armed while connecting: a server that accepts and never answers is not left waited on.
    var handshakeTimer: TimeEvent?
    var retriesDone = 0
    /// Re-reads of the server info while a sink exists and none is the default.
    var defaultCheckTimer: TimeEvent?
    var defaultChecksDone = 0
    /// The server string of the current connection (`unix:/run/user/1000/pulse/native`).
    var connectedServer: String?
    /// A fresh client asked for the defaults while ours names none (`AudioServerLink+SecondOpinion`).
    var secondOpinion: OpaquePointer?
    var secondOpinionDefaults: (sink: String?, source: String?)?
    /// The defaults our own view named in its last server info (nil: none).
    var reportedDefaults: (sink: String?, source: String?) = (nil, nil)
    var secondOpinionAgain = false
    /// Tests only: our own view's defaults are taken as "@DEFAULT_SINK@", as a pipewire-pulse
    /// client that missed WirePlumber's choice sees them.
    let ownViewHasNoDefaults: Bool
    /// Whether the current absence was logged (one line per absence).
    var absenceLogged = false

    /// Backoff before the next connection attempt when the socket refuses (no inotify event came).
    static let standardRetryDelays: [Int64] = [100, 200, 400, 800, 1600, 3200, 5000].map { $0 * 1_000_000 }
    /// The backoff in use, in nanoseconds: `standardRetryDelays` but in tests.
    let retryDelays: [Int64]
    /// How long a connection that the socket accepted may go without the server's answer.
    static let handshakeSeconds: Int64 = 5

    init(loop: PulseLoop, address: ServerAddress, log: @escaping AudioServerLink.Log, shared: LinkShared,
         ownViewHasNoDefaults: Bool = false, retryDelays: [Int64] = LinkCore.standardRetryDelays,
         onChange: @escaping @Sendable (InventoryChange) -> Void) {
        self.ownViewHasNoDefaults = ownViewHasNoDefaults
        self.retryDelays = retryDelays
        self.loop = loop
        self.address = address
        self.log = log
        self.shared = shared
        self.onChange = onChange
    }

    var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static func from(_ userdata: UnsafeMutableRawPointer?) -> LinkCore? {
        userdata.map { Unmanaged<LinkCore>.fromOpaque($0).takeUnretainedValue() }
    }

    var isConnected: Bool {
        if case .connected = phase { return true }
        return false
    }

    /// The inventory for everyone else, and the change for `onChange`.
    func publish(_ kind: InventoryChange.Kind, previous: AudioInventory) {
        let current = working
        shared.inventory.withLock { $0 = current }
        onChange?(InventoryChange(kind: kind, previous: previous, current: current))
    }

    /// Ends everything on the thread's last round: the context, the watch, the timer; pending
    /// operations complete with false; no `onChange` after this.
    func shutDown() {
        onChange = nil
        dropContext(disconnect: true)
        cancelRetry()
        watch?.close(loop: loop.core)
        watch = nil
        working = AudioInventory()
        shared.inventory.withLock { $0 = AudioInventory() }
        shared.absence.withLock { $0 = "stopped" }
    }
}
