/// The system-wide state the engine arbitrates under (guidelines §6 mapping).
///
/// The daemon feeds it from logind (lock), its own setting (silent mode), ALSA (ports, volume, mic
/// mute) and BlueZ (Bluetooth ports); an in-process `AudioSystem` takes it from its caller.
public struct SystemConditions: Sendable, Hashable {
    /// Silent mode: ambient/soloAmbient are silenced (G-SILENT).
    public var isSilentMode: Bool
    /// Screen lock (the Linux mapping of background): ambient/soloAmbient cannot play (G-SILENT).
    public var isLocked: Bool
    /// The system output volume, 0...1. Read-only for apps (G-VOLUME).
    public var outputVolume: Double
    /// Whether `outputVolume` was observed (a policy daemon without a mixer to follow does not
    /// know it, and says so rather than report a made-up value).
    public var isOutputVolumeKnown: Bool
    /// Connected input ports, in connection order.
    public var availableInputs: [AudioPort]
    /// Connected output ports, in connection order.
    public var availableOutputs: [AudioPort]
    /// The user's route pick, a port id (G-ROUTE-PICK); nil for automatic routing.
    public var routeOverride: String?
    /// The built-in microphone is muted by hardware (G-INT-MIC).
    public var isBuiltInMicMuted: Bool
    /// False between media services lost and reset.
    public var mediaServicesAvailable: Bool

    /// Conditions; the default is an unlocked, non-silent machine with a speaker and a built-in mic.
    public init(isSilentMode: Bool = false, isLocked: Bool = false, outputVolume: Double = 0.5,
                isOutputVolumeKnown: Bool = true,
                availableInputs: [AudioPort] = [.builtInMic],
                availableOutputs: [AudioPort] = [.speaker],
                routeOverride: String? = nil, isBuiltInMicMuted: Bool = false,
                mediaServicesAvailable: Bool = true) {
        self.isSilentMode = isSilentMode
        self.isLocked = isLocked
        self.outputVolume = outputVolume
        self.isOutputVolumeKnown = isOutputVolumeKnown
        self.availableInputs = availableInputs
        self.availableOutputs = availableOutputs
        self.routeOverride = routeOverride
        self.isBuiltInMicMuted = isBuiltInMicMuted
        self.mediaServicesAvailable = mediaServicesAvailable
    }

    /// The output volume if it is known, else nil: the one place a status and a property read.
    public var knownOutputVolume: Double? { isOutputVolumeKnown ? outputVolume : nil }
}
