/// Which server the daemon is connected to (`pa_server_info`).
public struct ServerIdentity: Sendable, Hashable {
    /// "pulseaudio", or "PulseAudio (on PipeWire 0.3.65)".
    public var name: String
    public var version: String
    /// The server instance's cookie: changes when the server restarts, so a stream index written
    /// down under one cookie means nothing under another.
    public var cookie: UInt32

    public init(name: String, version: String, cookie: UInt32) {
        self.name = name
        self.version = version
        self.cookie = cookie
    }
}

/// Everything the daemon knows about the server now: kept current from its events by
/// `AudioServerLink`, handed out as a value (a snapshot costs a copy-on-write reference).
public struct AudioInventory: Sendable, Hashable {
    /// nil while not connected.
    public var server: ServerIdentity?
    public var streams: [StreamID: AudioStream]
    public var devices: [DeviceID: AudioDevice]
    /// The default sink's and source's names.
    public var defaultSink: String?
    public var defaultSource: String?

    public init(server: ServerIdentity? = nil, streams: [StreamID: AudioStream] = [:],
                devices: [DeviceID: AudioDevice] = [:], defaultSink: String? = nil, defaultSource: String? = nil) {
        self.server = server
        self.streams = streams
        self.devices = devices
        self.defaultSink = defaultSink
        self.defaultSource = defaultSource
    }

    /// The device a stream is connected to.
    public func device(of stream: AudioStream) -> AudioDevice? {
        devices[DeviceID(stream.id.direction == .playback ? .sink : .source, stream.deviceIndex)]
    }

    /// The device named `name` of `kind`.
    public func device(_ kind: DeviceKind, named name: String) -> AudioDevice? {
        devices.values.first { $0.id.kind == kind && $0.name == name }
    }

    /// Whether `stream` records from a monitor source (a screen recorder, a level meter): never
    /// counted as recording from a microphone.
    public func isMonitorCapture(_ stream: AudioStream) -> Bool {
        stream.id.direction == .capture && (device(of: stream)?.isMonitor ?? false)
    }

    /// The streams in a stable order (playback first, then by index).
    public var sortedStreams: [AudioStream] { streams.values.sorted { $0.id < $1.id } }
    /// The devices in a stable order (sinks first, then by index).
    public var sortedDevices: [AudioDevice] { devices.values.sorted { $0.id < $1.id } }
}

/// What `AudioServerLink` reports after each change, on its own thread: the inventory before
/// and after one server event (or a connection or disconnection), so that every consumer derives
/// what appeared, changed or went from the same two values.
public struct InventoryChange: Sendable {
    public enum Kind: Sendable, Hashable {
        /// Connected (the first time or again): `current` was read afresh, `previous` is empty.
        case connected
        /// The server went away: `current` is empty.
        case disconnected(reason: String)
        /// One event of the connected server.
        case updated
    }

    public var kind: Kind
    public var previous: AudioInventory
    public var current: AudioInventory

    public init(kind: Kind, previous: AudioInventory, current: AudioInventory) {
        self.kind = kind
        self.previous = previous
        self.current = current
    }
}
