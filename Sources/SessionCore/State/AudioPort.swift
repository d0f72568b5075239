/// One input or output port.
public struct AudioPort: Sendable, Hashable, CustomStringConvertible {
    /// A stable unique id (e.g. an ALSA card/control name or a BlueZ device path).
    public var id: String
    /// A human-readable name, shown where volume cannot be changed (G-VOLUME-UI).
    public var name: String
    /// The kind of port.
    public var type: PortType
    /// Used only when the user picks it (G-ROUTE-PICK), never by automatic routing: an output the
    /// user named in the configuration (a USB DAC, a second card) must not capture audio just by
    /// existing, the way a plugged headphone does.
    public var pickOnly: Bool

    /// A port.
    public init(id: String, name: String, type: PortType, pickOnly: Bool = false) {
        self.id = id
        self.name = name
        self.type = type
        self.pickOnly = pickOnly
    }

    /// The built-in speaker.
    public static let speaker = AudioPort(id: "speaker", name: "Speaker", type: .speaker)
    /// The built-in microphone.
    public static let builtInMic = AudioPort(id: "builtInMic", name: "Built-in Microphone",
                                             type: .builtInMic)

    public var description: String { "\(type):\(id)" }
}

/// The ports a session's audio currently goes to and comes from.
public struct AudioRoute: Sendable, Hashable, CustomStringConvertible {
    /// Input ports (empty for output-only categories).
    public var inputs: [AudioPort]
    /// Output ports (several only for multiRoute).
    public var outputs: [AudioPort]

    /// A route.
    public init(inputs: [AudioPort] = [], outputs: [AudioPort] = []) {
        self.inputs = inputs
        self.outputs = outputs
    }

    /// The empty route.
    public static let none = AudioRoute()

    /// Whether any port of the route has id `portID`.
    public func contains(portID: String) -> Bool {
        inputs.contains { $0.id == portID } || outputs.contains { $0.id == portID }
    }

    public var description: String {
        "in \(inputs.map(\.description)) out \(outputs.map(\.description))"
    }
}
