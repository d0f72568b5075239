/// Who an effect is addressed to. Broadcasts keep system-wide changes O(1) in the engine; a daemon
/// emits them as one D-Bus signal on its policy object.
public enum EffectTarget: Sendable, Hashable {
    case session(SessionID)
    case everySession
    case everySessionExcept(SessionID)

    /// Whether `id` receives an effect with this target.
    public func includes(_ id: SessionID) -> Bool {
        switch self {
        case .session(let target): target == id
        case .everySession: true
        case .everySessionExcept(let excluded): excluded != id
        }
    }
}

/// One event the engine emits: a daemon forwards it to the owner of the session (or to all), an
/// in-process `AudioSystem` delivers it to the session's streams and callbacks.
public struct PolicyEffect: Sendable, Hashable, CustomStringConvertible {
    /// Who receives the event.
    public var target: EffectTarget
    /// The event.
    public var event: SessionEvent

    /// An effect delivering `event` to `target`.
    public init(_ target: EffectTarget, _ event: SessionEvent) {
        self.target = target
        self.event = event
    }

    /// An effect for one session.
    public static func to(_ id: SessionID, _ event: SessionEvent) -> PolicyEffect {
        PolicyEffect(.session(id), event)
    }

    public var description: String { "\(target) ← \(event)" }
}

extension Sequence where Element == PolicyEffect {
    /// The effects as `(session, event)` pairs over `sessions` (broadcasts expanded, in the order
    /// of `sessions`) — the form a daemon forwards per client, or a test reads.
    public func addressed(to sessions: [SessionID]) -> [(SessionID, SessionEvent)] {
        var pairs: [(SessionID, SessionEvent)] = []
        for effect in self {
            if case .session(let id) = effect.target {
                pairs.append((id, effect.event))
            } else {
                for id in sessions where effect.target.includes(id) { pairs.append((id, effect.event)) }
            }
        }
        return pairs
    }
}
