/// Options of `setActive` (G-INT-NOTIFY; delayed activation from the audio-focus model).
public struct ActivationOptions: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// On deactivation: the sessions this one interrupted may resume; they receive *ended* with
    /// `shouldResume` (G-INT-NOTIFY). Invalid on activation (`badParam`).
    public static let notifyOthersOnDeactivation = ActivationOptions(rawValue: 1 << 0)
    /// On activation: if a call owns audio, queue the activation and grant it automatically when
    /// the last call ends, instead of failing with `insufficientPriority` (G-CALLS). Invalid on
    /// deactivation (`badParam`).
    public static let allowDelayedActivation = ActivationOptions(rawValue: 1 << 1)
    /// On activation: join the active sessions without interrupting any of them. For a policy
    /// service that adopts what already played before it started (a restarted daemon takes the
    /// players it finds playing as the user's choice, not as a conflict); every later activation
    /// applies the rules to it as usual. Ducking still applies. Invalid on deactivation (`badParam`).
    public static let alongsideOthers = ActivationOptions(rawValue: 1 << 2)

    public var description: String {
        var names: [String] = []
        if contains(.notifyOthersOnDeactivation) { names.append("notifyOthersOnDeactivation") }
        if contains(.allowDelayedActivation) { names.append("allowDelayedActivation") }
        if contains(.alongsideOthers) { names.append("alongsideOthers") }
        return "[" + names.joined(separator: ", ") + "]"
    }
}
