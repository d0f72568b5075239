/// Why a request to the policy engine failed (field notes, "Activation errors worth mirroring").
public enum SessionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A parameter was invalid; the state is unchanged.
    case badParam(BadParameter)
    /// Deactivated while the session's I/O was still running. Unlike every other error, the request
    /// *did* take effect: the session is inactive now.
    case isBusy
    /// A call owns audio (G-CALLS): non-mixing activations are refused until it ends, unless the
    /// activation allows delay.
    case insufficientPriority
    /// ambient/soloAmbient while the screen is locked (G-SILENT, Linux mapping of background), or
    /// no output route at all.
    case cannotStartPlaying
    /// An input category without record permission, without any input route, or with only the
    /// hardware-muted built-in microphone (G-INT-MIC).
    case cannotStartRecording
    /// The request needs an active session (e.g. starting I/O).
    case sessionNotActive
    /// Media services are lost; wait for the reset and rebuild.
    case mediaServicesFailed

    public var description: String {
        switch self {
        case .badParam(let reason): "badParam: \(reason)"
        case .isBusy: "isBusy: deactivated while I/O was running"
        case .insufficientPriority: "insufficientPriority: a call owns audio"
        case .cannotStartPlaying: "cannotStartPlaying"
        case .cannotStartRecording: "cannotStartRecording"
        case .sessionNotActive: "sessionNotActive"
        case .mediaServicesFailed: "mediaServicesFailed"
        }
    }
}

/// The parameter that made a request invalid.
public enum BadParameter: Sendable, Hashable, CustomStringConvertible {
    /// `option` does not fit `category` (G-CAT-OPTIONS); the previous configuration stays.
    case optionNotAllowed(option: SessionOption, category: SessionCategory)
    /// notifyOthers is valid only on deactivation; delayed activation only on activation.
    case optionNotValidHere(ActivationOptions)
    /// The engine knows no session with this id (never registered, or removed).
    case unknownSession(SessionID)
    /// No available port has this id.
    case unknownPort(String)
    /// A number that must be finite and in range was not.
    case valueOutOfRange(Double)
    /// A route event reason that has its own entry point (connect/disconnect/override).
    case reasonNotReportable(RouteChangeReason)

    public var description: String {
        switch self {
        case .optionNotAllowed(let option, let category):
            "option \(option) does not fit category \(category)"
        case .optionNotValidHere(let options): "activation options \(options) not valid here"
        case .unknownSession(let id): "unknown session \(id)"
        case .unknownPort(let id): "unknown port \(id)"
        case .valueOutOfRange(let value): "value \(value) out of range"
        case .reasonNotReportable(let reason): "route change reason \(reason) has its own entry point"
        }
    }
}
