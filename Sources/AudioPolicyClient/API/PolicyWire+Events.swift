import DBus
import SessionCore

/// `SessionEvent` ↔ the signals of `org.mprisd.AudioSession1`.
extension PolicyWire {
    /// The signals, declared once for the session interface.
    package static let signalDescriptions: [SignalDescription] = [
        SignalDescription(Signal.interruption, [Argument("kind", .string), Argument("details", dictionaryType)]),
        SignalDescription(Signal.routeChange, [Argument("reason", .string),
                                               Argument("previousOutputs", .array(.string)),
                                               Argument("currentOutputs", .array(.string))]),
        SignalDescription(Signal.secondaryAudioHint, [Argument("begin", .boolean)]),
        SignalDescription(Signal.ducking, [Argument("began", .boolean)]),
        SignalDescription(Signal.delayedActivation, [Argument("granted", .boolean), Argument("error", .string)]),
        SignalDescription(Signal.silentModeChanged, [Argument("on", .boolean)]),
        SignalDescription(Signal.outputVolumeChanged, [Argument("volume", .double)]),
    ]

    /// The signal carrying `event`; nil for the media-services events, which have no signal (a
    /// client learns about those from the daemon's name owner).
    package static func signal(for event: SessionEvent) -> (member: String, body: [DBusValue])? {
        switch event {
        case .interruption(.began(let reason)):
            return (Signal.interruption, [.string("began"), dictionary([("reason", .string(reason.rawValue))])])
        case .interruption(.ended(let options)):
            return (Signal.interruption, [.string("ended"),
                                          dictionary([("shouldResume", .boolean(options.contains(.shouldResume)))])])
        case .routeChange(let change):
            return (Signal.routeChange, [.string(change.reason.rawValue), portIDs(change.previousRoute),
                                         portIDs(change.currentRoute)])
        case .secondaryAudioHint(let hint):
            return (Signal.secondaryAudioHint, [.boolean(hint == .begin)])
        case .ducking(let ducking):
            return (Signal.ducking, [.boolean(ducking == .began)])
        case .delayedActivation(.granted):
            return (Signal.delayedActivation, [.boolean(true), .string("")])
        case .delayedActivation(.refused(let error)):
            return (Signal.delayedActivation, [.boolean(false), .string(dbusError(error).name)])
        case .silentModeChanged(let on):
            return (Signal.silentModeChanged, [.boolean(on)])
        case .outputVolumeChanged(let volume):
            return (Signal.outputVolumeChanged, [.double(volume)])
        case .mediaServicesLost, .mediaServicesReset:
            return nil
        }
    }

    /// The event a session signal carries; nil for anything malformed or unknown.
    package static func event(from signal: Message) -> SessionEvent? {
        let body = signal.body
        switch (signal.member, body.first, body.count) {
        case (Signal.interruption?, .string(let kind)?, 2):
            guard let details = try? entries(of: body[1]) else { return nil }
            if kind == "began" {
                guard case .string(let text)? = details["reason"] else { return .interruption(.began(reason: .default)) }
                return .interruption(.began(reason: InterruptionReason(rawValue: text) ?? .default))
            }
            guard kind == "ended" else { return nil }
            let resume = if case .boolean(true)? = details["shouldResume"] { true } else { false }
            return .interruption(.ended(options: resume ? .shouldResume : []))
        case (Signal.routeChange?, .string(let text)?, 3):
            guard let reason = RouteChangeReason(rawValue: text),
                  let previous = route(body[1]), let current = route(body[2]) else { return nil }
            return .routeChange(RouteChangeEvent(reason: reason, previousRoute: previous, currentRoute: current))
        case (Signal.secondaryAudioHint?, .boolean(let begin)?, 1):
            return .secondaryAudioHint(begin ? .begin : .end)
        case (Signal.ducking?, .boolean(let began)?, 1):
            return .ducking(began ? .began : .ended)
        case (Signal.delayedActivation?, .boolean(let granted)?, 2):
            if granted { return .delayedActivation(.granted) }
            guard case .string(let name) = body[1] else { return nil }
            let error = sessionError(DBusError(name, ""), fallback: .unknownSession(SessionID(rawValue: 0)))
            return .delayedActivation(.refused(error ?? .mediaServicesFailed))
        case (Signal.silentModeChanged?, .boolean(let on)?, 1):
            return .silentModeChanged(on)
        case (Signal.outputVolumeChanged?, .double(let volume)?, 1):
            return .outputVolumeChanged(volume)
        default:
            return nil
        }
    }

    private static func portIDs(_ route: AudioRoute) -> DBusValue {
        .array(element: .string, route.outputs.map { .string($0.id) })
    }

    /// Only port ids travel: the client gets ports named by their id, typed where the id is one of
    /// SessionCore's built-in ports and `.lineOut` otherwise.
    private static func route(_ value: DBusValue) -> AudioRoute? {
        guard case .array(.string, let items) = value else { return nil }
        var outputs: [AudioPort] = []
        for item in items {
            guard case .string(let id) = item else { return nil }
            switch id {
            case AudioPort.speaker.id: outputs.append(.speaker)
            case AudioPort.builtInMic.id: outputs.append(.builtInMic)
            default: outputs.append(AudioPort(id: id, name: id, type: .lineOut))
            }
        }
        return AudioRoute(outputs: outputs)
    }
}
