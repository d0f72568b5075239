import AudioServer
import SessionCore

/// Where each session is audible, from its own streams: its device loss (G-HEADPHONES-OUT per
/// stream — when sinks go away, the sessions whose streams played there, and only those, get
/// `oldDeviceUnavailable` from the engine, so that a player pauses when its headphones go and
/// nobody pauses when a monitor nobody plays on sleeps), its duck channel, and the status.
extension StreamPolicy {
    /// Whether session `number` has playback streams on the server now (paired at the last
    /// decision).
    public func hasPlaybackStreams(ofSession number: UInt64) -> Bool {
        state.withLock { state in
            state.inventory.server != nil && state.pairs.contains { $0.key.direction == .playback && $0.value == number }
        }
    }

    /// Session number → the sinks its streams play on, while a server is connected (nil: none).
    public func audibleSinks() -> [UInt64: [String]]? {
        state.withLock { state in
            guard state.inventory.server != nil else { return nil }
            return state.audible.bySession.mapValues { $0.sorted() }
        }
    }

    /// Tells the engine which sessions played on `lost` (on the policy's thread, before the
    /// change is applied: `AudibleSinks` holds where each was audible until now).
    func reportDeviceLoss(_ lost: [AudioPort], in change: InventoryChange) {
        guard !lost.isEmpty else { return }
        let ports = Dictionary(lost.map { (ServerSinkPort.sinkName(ofPort: $0.id) ?? $0.id, $0) }) { first, _ in first }
        let losers = state.withLock { state -> [(Managed, [String])] in
            guard !state.stopped else { return [] }
            let losses = state.audible.losses(of: Set(ports.keys), destination: change.current.defaultSink)
            return losses.sorted { $0.key < $1.key }.compactMap { number, sinks in
                state.sessions[number].map { ($0, sinks) }
            }
        }
        for (managed, sinks) in losers {
            guard let engine = managed.engine else { continue }
            log("\(managed.label) played on \(sinks.joined(separator: ", ")), which went away")
            engine.system.reportDeviceLoss(sinks.compactMap { ports[$0] }, of: [engine.id])
        }
    }
}
