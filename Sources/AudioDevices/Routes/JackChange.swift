import SessionCore

/// A jack was plugged or unplugged.
public struct JackChange: Sendable, Hashable, CustomStringConvertible {
    /// The port behind the jack (id `CONTROL:ELEMENT`, type from the jack's name).
    public var port: AudioPort
    /// Whether something is plugged in now.
    public var plugged: Bool

    /// A change.
    public init(port: AudioPort, plugged: Bool) {
        self.port = port
        self.plugged = plugged
    }

    public var description: String { "\(port) \(plugged ? "plugged" : "unplugged")" }
}

/// How jack names map to port types.
public enum JackNames {
    /// The port type of a jack named `name` (with or without the ` Jack` suffix), the way the
    /// kernel's HDA and ASoC drivers name them: `Headphone`, `Front Headphone` → headphones;
    /// `Headset Mic`, `Mic`, `Front Mic` → headsetMic; `Line Out` → lineOut; `HDMI/DP,pcm=3` →
    /// hdmi; anything else (`Speaker Phantom`, `Line`, `Dock Line Out`) → lineOut.
    public static func portType(forJack name: String) -> PortType {
        let bare = portName(forJack: name)
        if bare.hasPrefix("HDMI") || bare.hasPrefix("DP") { return .hdmi }
        if bare.contains("Headphone") { return .headphones }
        if bare.contains("Mic") { return .headsetMic }
        return .lineOut
    }

    /// The jack's name without the ` Jack` suffix: `Front Headphone Jack` → `Front Headphone`.
    public static func portName(forJack name: String) -> String {
        name.hasSuffix(" Jack") ? String(name.dropLast(5)) : name
    }

    /// Whether a control element of this name is a jack (`… Jack`).
    static func isJack(_ name: String) -> Bool {
        name.hasSuffix(" Jack")
    }
}
