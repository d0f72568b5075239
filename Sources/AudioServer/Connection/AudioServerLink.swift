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
/// SKELETON: the API the daemon is written against; the implementation lands with issue 14.
public final class AudioServerLink: Sendable {
    public typealias Log = @Sendable (String) -> Void
    public typealias Completion = @Sendable (Bool) -> Void

    public let address: ServerAddress
    private let log: Log
    private let state = Mutex(AudioInventory())

    public init(address: ServerAddress = .fromEnvironment(), log: @escaping Log) {
        self.address = address
        self.log = log
    }

    /// Starts the link's thread; `onChange` runs on it after every change (keep it short: no
    /// blocking calls). Connects at once if the server is there, else when it appears.
    public func start(onChange: @escaping @Sendable (InventoryChange) -> Void) throws(PosixError) {}

    /// Disconnects and ends the thread; no `onChange` runs after it returns. Idempotent.
    public func stop() {}

    /// The inventory now (empty, `server == nil`, while not connected).
    public var inventory: AudioInventory { state.withLock { $0 } }

    /// Whether the link is connected to a server now.
    public var isConnected: Bool { inventory.server != nil }

    /// Why there is no server now ("no server at /run/user/1000/pulse/native"), nil when connected.
    public var absenceReason: String? { isConnected ? nil : "not implemented yet" }

    /// Sets a stream's volume (`pa_context_set_sink_input_volume` / `…_source_output_volume`);
    /// `completion` gets whether the server accepted it, on the link's thread.
    public func setVolume(_ stream: StreamID, to volume: ChannelVolume, completion: @escaping Completion = { _ in }) {
        completion(false)
    }

    /// Mutes or unmutes a stream (`pa_context_set_sink_input_mute` / `…_source_output_mute`).
    public func setMute(_ stream: StreamID, _ muted: Bool, completion: @escaping Completion = { _ in }) {
        completion(false)
    }
}
