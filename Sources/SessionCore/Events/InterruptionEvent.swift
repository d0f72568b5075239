/// Why an interruption began (field notes: a reason appears only on *began*).
public enum InterruptionReason: String, Sendable, Hashable, CaseIterable {
    /// Another session took audio (G-INT-KINDS).
    case `default`
    /// The built-in microphone was muted by hardware (G-INT-MIC).
    case builtInMicMuted
    /// The session lost every usable port for its category.
    case routeDisconnected
    /// The screen locked: ambient/soloAmbient stop (G-SILENT; Linux mapping of "suspended").
    case appWasSuspended
    /// The system is going to sleep; the interruption ends without shouldResume.
    case sleep
}

/// Options of an *ended* interruption (field notes: options appear only on *ended*).
public struct InterruptionOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// The interrupter deactivated with notify-others: the interruption was resumable
    /// (G-INT-NOTIFY, G-INT-RESUME).
    public static let shouldResume = InterruptionOptions(rawValue: 1)
}

/// An interruption of a session (G-INT-KINDS). The engine pairs every `began` with exactly one
/// `ended`, also when the interrupter vanishes (then without `shouldResume`).
public enum InterruptionEvent: Sendable, Hashable {
    case began(reason: InterruptionReason)
    case ended(options: InterruptionOptions)

    /// `ended` with `shouldResume`.
    public var shouldResume: Bool {
        if case .ended(let options) = self { return options.contains(.shouldResume) }
        return false
    }
}
