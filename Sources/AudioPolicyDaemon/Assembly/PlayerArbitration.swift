import AudioPolicyClient
import DBus
import SessionCore

/// The daemon's player arbiter (issue 16): made, wired to the policy object and started.
enum PlayerArbitration {
    /// An arbiter following `connection`'s players, served by `service`, asked about pauses of
    /// the policy through the tracker's sessions (foreign players) and the service's (our own
    /// clients, which pause themselves when their session is interrupted).
    static func start(connection: Connection, service: PolicyService, players: ForeignPlayerTracker,
                      system: AudioSystem, ignore: PlayerIgnoreList,
                      label: @escaping @Sendable (SessionID) -> String?, log: DaemonLog) -> PlayerArbiter {
        let arbiter = PlayerArbiter(connection: connection, ignore: ignore, pauseCause: { busName, owner in
            let ids = players.sessionID(of: busName).map { [$0] } ?? service.sessionIDs(ownedBy: owner)
            let cause = ids.lazy.compactMap { system.engine.session($0)?.interruptedBy }.first
            return cause.map { describe($0, label: label) }
        }, log: { log.info($0) })
        if !ignore.rules.isEmpty { log.info("players ignored by the media keys: \(ignore.rules.joined(separator: ", "))") }
        service.follow(arbiter: arbiter)
        arbiter.start { result in
            if case .failure(let error) = result { log.warning("players not arbitrated: \(error)") }
        }
        return arbiter
    }

    /// `session 3 (mprisd run)`, `the screen lock`, … for `mprisd players`.
    static func describe(_ cause: InterruptionCause, label: (SessionID) -> String?) -> String {
        switch cause {
        case .session(let id): label(id) ?? "session \(id.rawValue)"
        case .suspended: "the screen lock"
        case .builtInMicMuted: "the muted microphone"
        case .routeDisconnected: "the lost route"
        case .sleep: "the coming sleep"
        }
    }
}
