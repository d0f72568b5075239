/// Which way a stream's audio goes.
public enum StreamDirection: String, Sendable, Hashable, Codable {
    /// A sink input: an app playing.
    case playback
    /// A source output: an app recording (or reading a monitor).
    case capture
}

/// A stream's identity within one server instance: its direction and the server's index
/// (indices of sink inputs and source outputs are separate counters).
public struct StreamID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var direction: StreamDirection
    public var index: UInt32

    public init(_ direction: StreamDirection, _ index: UInt32) {
        self.direction = direction
        self.index = index
    }

    public static func < (lhs: StreamID, rhs: StreamID) -> Bool {
        (lhs.direction == .playback ? 0 : 1, lhs.index) < (rhs.direction == .playback ? 0 : 1, rhs.index)
    }

    public var description: String { "\(direction == .playback ? "sink-input" : "source-output") #\(index)" }
}

/// One app's stream as the server describes it (`pa_sink_input_info` / `pa_source_output_info`
/// and the proplist of the stream and its client). Properties an app did not set are nil; none of
/// them is verified by the server (a client claims its own process id).
public struct AudioStream: Sendable, Hashable {
    public var id: StreamID
    /// `application.name` ("Firefox", "ZOOM VoiceEngine", "paplay").
    public var applicationName: String?
    /// `application.process.binary`.
    public var binary: String?
    /// `application.process.id`.
    public var processID: Int32?
    /// The Flatpak app id (`pipewire.access.portal.app_id`, else `application.id` when the app runs
    /// in a Flatpak sandbox), nil outside Flatpak.
    public var flatpakID: String?
    /// `media.role` exactly as the server reports it ("music", "phone", "Navigation"…).
    public var role: String?
    /// `media.name`.
    public var mediaName: String?
    /// Whether the app corked (paused) its own stream.
    public var isCorked: Bool
    public var volume: ChannelVolume
    public var isMuted: Bool
    /// The sink (playback) or source (capture) index it is connected to.
    public var deviceIndex: UInt32
    /// Every property of the stream, for rules and diagnostics.
    public var properties: [String: String]

    public init(id: StreamID, applicationName: String? = nil, binary: String? = nil, processID: Int32? = nil,
                flatpakID: String? = nil, role: String? = nil, mediaName: String? = nil, isCorked: Bool = false,
                volume: ChannelVolume = ChannelVolume(uniform: ChannelVolume.norm, count: 2), isMuted: Bool = false,
                deviceIndex: UInt32 = 0, properties: [String: String] = [:]) {
        self.id = id
        self.applicationName = applicationName
        self.binary = binary
        self.processID = processID
        self.flatpakID = flatpakID
        self.role = role
        self.mediaName = mediaName
        self.isCorked = isCorked
        self.volume = volume
        self.isMuted = isMuted
        self.deviceIndex = deviceIndex
        self.properties = properties
    }

    /// The name to show: the application name, else the binary, else the media name.
    public var displayName: String {
        applicationName ?? binary ?? mediaName ?? "\(id)"
    }
}
