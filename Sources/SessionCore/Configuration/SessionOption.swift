/// One option that modifies a category (G-CAT-OPTIONS). Named in configuration errors.
public enum SessionOption: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case mixWithOthers
    case duckOthers
    case interruptSpokenAudioAndMixWithOthers
    case allowBluetooth
    case allowBluetoothA2DP
    case allowNetworkReceivers
    case defaultToSpeaker
    case overrideMutedMicrophoneInterruption

    public var description: String { rawValue }
}

/// A set of `SessionOption`s (G-CAT-OPTIONS). Options are not sticky: each configuration change
/// gives the full set again.
public struct SessionOptions: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Mix with other active audio instead of interrupting it.
    public static let mixWithOthers = SessionOptions(.mixWithOthers)
    /// Make other audio quieter for exactly as long as this session is active (implies mixing).
    public static let duckOthers = SessionOptions(.duckOthers)
    /// Interrupt (resumably) other sessions in `spokenAudio` mode, mix with the rest (implies mixing).
    public static let interruptSpokenAudioAndMixWithOthers =
        SessionOptions(.interruptSpokenAudioAndMixWithOthers)
    /// Allow Bluetooth hands-free (HFP) input/output.
    public static let allowBluetooth = SessionOptions(.allowBluetooth)
    /// Allow Bluetooth A2DP output for playAndRecord.
    public static let allowBluetoothA2DP = SessionOptions(.allowBluetoothA2DP)
    /// Allow network receivers (the AirPlay analogue) for playAndRecord.
    public static let allowNetworkReceivers = SessionOptions(.allowNetworkReceivers)
    /// Prefer the built-in speaker over line-out/HDMI when no private device is connected.
    public static let defaultToSpeaker = SessionOptions(.defaultToSpeaker)
    /// Stay active when the built-in microphone is muted by hardware (G-INT-MIC).
    public static let overrideMutedMicrophoneInterruption =
        SessionOptions(.overrideMutedMicrophoneInterruption)

    /// The set holding exactly `option`.
    public init(_ option: SessionOption) {
        let index = SessionOption.allCases.firstIndex(of: option) ?? 0
        self.init(rawValue: 1 << UInt16(index))
    }

    /// The set holding `options`.
    public init(_ options: [SessionOption]) {
        self = options.reduce(into: SessionOptions()) { $0.insert(SessionOptions($1)) }
    }

    /// Whether the set holds `option`.
    public func contains(_ option: SessionOption) -> Bool { contains(SessionOptions(option)) }

    /// The options in the set, in declaration order.
    public var elements: [SessionOption] { SessionOption.allCases.filter { contains($0) } }

    public var description: String { "[" + elements.map(\.rawValue).joined(separator: ", ") + "]" }
}
