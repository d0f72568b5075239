import DBus
import SessionCore

/// `SessionError` travels as `org.mprisd.AudioPolicy1.Error.<Case>` with its description as the
/// message. The client rebuilds the exact error from both, the `badParam` detail included.
extension PolicyWire {
    package static let errorPrefix = AudioPolicyNames.interface + ".Error."
    /// A request over one of the daemon's per-client limits (`PolicyLimits`). Not a `SessionError`:
    /// the engine has no such limits, only the daemon that serves many clients.
    public static let limitsExceeded = errorPrefix + "LimitsExceeded"

    package static func dbusError(_ error: SessionError) -> DBusError {
        DBusError(errorPrefix + errorCase(error), error.description)
    }

    /// The `<Case>` part of the error name.
    package static func errorCase(_ error: SessionError) -> String {
        switch error {
        case .badParam: "BadParam"
        case .isBusy: "IsBusy"
        case .insufficientPriority: "InsufficientPriority"
        case .cannotStartPlaying: "CannotStartPlaying"
        case .cannotStartRecording: "CannotStartRecording"
        case .sessionNotActive: "SessionNotActive"
        case .mediaServicesFailed: "MediaServicesFailed"
        }
    }

    /// The `SessionError` a daemon error reply stands for; nil for any other error (the bus's own,
    /// `AccessDenied`, a timeout). A `BadParam` whose detail cannot be read becomes
    /// `badParam(fallback)`.
    package static func sessionError(_ error: DBusError, fallback: BadParameter) -> SessionError? {
        guard error.name.hasPrefix(errorPrefix) else { return nil }
        switch error.name.dropFirst(errorPrefix.count) {
        case "BadParam": return .badParam(badParameter(error.message) ?? fallback)
        case "IsBusy": return .isBusy
        case "InsufficientPriority": return .insufficientPriority
        case "CannotStartPlaying": return .cannotStartPlaying
        case "CannotStartRecording": return .cannotStartRecording
        case "SessionNotActive": return .sessionNotActive
        case "MediaServicesFailed": return .mediaServicesFailed
        default: return nil
        }
    }

    /// Reads `BadParameter.description` back (the message is `badParam: <detail>`).
    package static func badParameter(_ message: String) -> BadParameter? {
        let prefix = "badParam: "
        guard message.hasPrefix(prefix) else { return nil }
        let detail = String(message.dropFirst(prefix.count))
        let words = detail.split(separator: " ").map(String.init)
        if words.count == 7, words[0] == "option", words[2...5] == ["does", "not", "fit", "category"],
           let option = SessionOption(rawValue: words[1]), let category = SessionCategory(rawValue: words[6]) {
            return .optionNotAllowed(option: option, category: category)
        }
        if detail.hasPrefix("unknown session #"), let raw = UInt64(detail.dropFirst("unknown session #".count)) {
            return .unknownSession(SessionID(rawValue: raw))
        }
        if detail.hasPrefix("unknown port ") {
            return .unknownPort(String(detail.dropFirst("unknown port ".count)))
        }
        if words.count == 5, words[0] == "value", words[2...4] == ["out", "of", "range"], let value = Double(words[1]) {
            return .valueOutOfRange(value)
        }
        if detail.hasPrefix("activation options ["), detail.hasSuffix("] not valid here") {
            var options: ActivationOptions = []
            if detail.contains("notifyOthersOnDeactivation") { options.insert(.notifyOthersOnDeactivation) }
            if detail.contains("allowDelayedActivation") { options.insert(.allowDelayedActivation) }
            if detail.contains("alongsideOthers") { options.insert(.alongsideOthers) }
            return .optionNotValidHere(options)
        }
        if words.count == 9, words[0...2] == ["route", "change", "reason"],
           let reason = RouteChangeReason(rawValue: words[3]) {
            return .reasonNotReportable(reason)
        }
        return nil
    }
}
