import AudioServer

/// What `mprisd status` shows of one stream: the session it is paired with and what the daemon
/// does to it.
public struct StreamReport: Sendable, Hashable {
    /// The session's label or the player's name; nil when it belongs to no managed session.
    public var session: String?
    /// "ducked to 30% (user had 100%)", "muted (interrupted)"; nil when nothing is done to it.
    public var action: String?

    public init(session: String?, action: String?) {
        self.session = session
        self.action = action
    }
}

extension StreamPolicy {
    /// The streams paired with a managed session or changed by the daemon now (any thread).
    public func streamReport() -> [StreamID: StreamReport] {
        state.withLock { state in
            var report: [StreamID: StreamReport] = [:]
            let duckedByWirePlumber = RoleBasedDucking.ducked(in: state.inventory)
            for id in Set(state.pairs.keys).union(state.applied.keys) {
                let number = state.pairs[id] ?? state.applied[id]?.session
                let label = number.flatMap { state.sessions[$0]?.label }
                var action = state.applied[id].flatMap(Self.describe)
                if action == nil, duckedByWirePlumber.contains(id) { action = "ducked by WirePlumber (role-based policy)" }
                report[id] = StreamReport(session: label, action: action)
            }
            return report
        }
    }

    private static func describe(_ applied: Applied) -> String? {
        var parts: [String] = []
        if let duck = applied.duck { parts.append("ducked to \(duck.set) (user had \(duck.found))") }
        if applied.userKeptVolume { parts.append("not ducked: the user chose its volume") }
        if applied.muted { parts.append("muted (interrupted)") }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}
