/// The kind of an audio port (G-HEADPHONES-IN/OUT, G-ROUTE-PICK).
public enum PortType: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case speaker
    case headphones
    case headsetMic
    case bluetoothA2DP
    case bluetoothHFP
    case usbAudio
    case hdmi
    case lineOut
    case network
    case builtInMic

    public var description: String { rawValue }

    /// The port can play sound.
    public var isOutput: Bool {
        switch self {
        case .speaker, .headphones, .bluetoothA2DP, .bluetoothHFP, .usbAudio, .hdmi, .lineOut, .network:
            true
        case .headsetMic, .builtInMic: false
        }
    }

    /// The port can capture sound.
    public var isInput: Bool {
        switch self {
        case .headsetMic, .builtInMic, .bluetoothHFP, .usbAudio: true
        case .speaker, .headphones, .bluetoothA2DP, .hdmi, .lineOut, .network: false
        }
    }

    /// Built into the machine: the fallback when nothing else is connected.
    public var isBuiltIn: Bool { self == .speaker || self == .builtInMic }

    /// Private listening: losing it must pause playback (G-HEADPHONES-OUT).
    public var isPrivate: Bool {
        switch self {
        case .headphones, .headsetMic, .bluetoothA2DP, .bluetoothHFP, .usbAudio: true
        case .speaker, .hdmi, .lineOut, .network, .builtInMic: false
        }
    }
}
