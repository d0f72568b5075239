import AudioPolicyClient
import AudioServer
import DBus
import FoundationEssentials
import MPRISDirectory
import SessionCore

/// The daemon's player arbiter (issue 16): made, wired to the policy object and started.
enum PlayerArbitration {
    /// An arbiter of `directory`'s players, served by `service`, asked about pauses of the
    /// policy through `sessions`: the player's own session (a foreign player's stand-in), else
    /// the sessions its owner registered (our own clients, which pause themselves when their
    /// session is interrupted).
    /// The arbiter also follows which players have streams on `audioServer`'s server, as
    /// `streams` joins them (before the link starts: the caller passes it every change after
    /// `streams`, `PlayerArbiter.inventoryChanged`).
    static func start(directory: PlayerDirectory, service: PolicyService, sessions: SessionDirectory,
                      system: AudioSystem, ignore: PlayerIgnoreList, audioServer: AudioServerLink,
                      streams: PlayerStreams, log: DaemonLog) -> PlayerArbiter {
        let limit = streamsGoneLimit(log: log)
        let arbiter = PlayerArbiter(directory: directory, ignore: ignore, streamsGoneLimit: limit, pauseCause: { busName, owner in
            let ids = sessions.session(ofPlayer: busName).map { [$0] } ?? sessions.clientSessions(ownedBy: owner)
            let cause = ids.lazy.compactMap { system.engine.session($0)?.interruptedBy }.first
            return cause.map { describe($0, label: sessions.label(of:)) }
        }, log: { log.info($0) })
        if !ignore.rules.isEmpty { log.info("players ignored by the media keys: \(ignore.rules.joined(separator: ", "))") }
        arbiter.follow(streams: streams, clock: .live(audioServer))
        service.follow(arbiter: arbiter)
        arbiter.start { result in
            if case .failure(let error) = result { log.warning("players not arbitrated: \(error)") }
        }
        return arbiter
    }

    /// The environment variable that shortens `PlayerRanking.streamsGoneLimit`, in seconds: for
    /// tests, which cannot wait ten minutes. Not a setting: nobody else should need it.
    static let streamsGoneLimitVariable = "MPRISD_TEST_STREAMS_GONE_LIMIT"

    /// `PlayerRanking.streamsGoneLimit`, or the test's (`streamsGoneLimitVariable`: a positive
    /// number of seconds; anything else is said in the log and ignored).
    static func streamsGoneLimit(log: DaemonLog) -> TimeInterval {
        guard let text = ProcessInfo.processInfo.environment[streamsGoneLimitVariable] else {
            return PlayerRanking.streamsGoneLimit
        }
        guard let seconds = TimeInterval(text), seconds.isFinite, seconds > 0 else {
            log.warning("\(streamsGoneLimitVariable)='\(text)' is not a positive number of seconds; ignored")
            return PlayerRanking.streamsGoneLimit
        }
        log.info("players leave their audio context \(text) s after their streams went (\(streamsGoneLimitVariable))")
        return seconds
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
