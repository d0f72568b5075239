/// A sink (output) or a source (input).
public enum DeviceKind: String, Sendable, Hashable, Codable {
    case sink
    case source
}

/// A device's identity within one server instance.
public struct DeviceID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var kind: DeviceKind
    public var index: UInt32

    public init(_ kind: DeviceKind, _ index: UInt32) {
        self.kind = kind
        self.index = index
    }

    public static func < (lhs: DeviceID, rhs: DeviceID) -> Bool {
        (lhs.kind == .sink ? 0 : 1, lhs.index) < (rhs.kind == .sink ? 0 : 1, rhs.index)
    }

    public var description: String { "\(kind.rawValue) #\(index)" }
}

/// A port of a device (a jack, a speaker): `pa_port_info`.
public struct DevicePort: Sendable, Hashable {
    /// `pa_port_available_t`: whether something is plugged in, where the hardware can tell.
    public enum Availability: String, Sendable, Hashable, Codable {
        case unknown
        case no
        case yes
    }

    public var name: String
    public var description: String
    public var availability: Availability
    public var priority: UInt32

    public init(name: String, description: String, availability: Availability = .unknown, priority: UInt32 = 0) {
        self.name = name
        self.description = description
        self.availability = availability
        self.priority = priority
    }
}

/// A sink or a source as the server describes it (`pa_sink_info` / `pa_source_info`).
public struct AudioDevice: Sendable, Hashable {
    public var id: DeviceID
    /// The server's name for it ("alsa_output.pci-0000_00_1f.3.analog-stereo", "null-sink").
    public var name: String
    /// The human name ("Built-in Audio Analog Stereo").
    public var description: String
    public var ports: [DevicePort]
    /// The active port's name, if it has ports.
    public var activePort: String?
    public var volume: ChannelVolume
    public var isMuted: Bool
    /// For a source: the sink it is the monitor of (what plays, not a microphone).
    public var monitorOfSink: UInt32?
    /// Every property of the device (`device.bus`, `device.form_factor`, `alsa.card`…).
    public var properties: [String: String]

    public init(id: DeviceID, name: String, description: String = "", ports: [DevicePort] = [],
                activePort: String? = nil, volume: ChannelVolume = ChannelVolume(uniform: ChannelVolume.norm, count: 2),
                isMuted: Bool = false, monitorOfSink: UInt32? = nil, properties: [String: String] = [:]) {
        self.id = id
        self.name = name
        self.description = description
        self.ports = ports
        self.activePort = activePort
        self.volume = volume
        self.isMuted = isMuted
        self.monitorOfSink = monitorOfSink
        self.properties = properties
    }

    /// A monitor source (what a sink plays): never a microphone.
    public var isMonitor: Bool { monitorOfSink != nil }

    /// Whether it can be heard or recorded now: its active port is not reported unplugged (devices
    /// without ports, or whose hardware cannot tell, count as available).
    public var isAvailable: Bool {
        guard let activePort, let port = ports.first(where: { $0.name == activePort }) else { return true }
        return port.availability != .no
    }
}
