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
        let wirePlumberPauses = leavesDeviceLossToWirePlumber(change)
        for (managed, sinks) in losers {
            guard let engine = managed.engine else { continue }
            let gone = sinks.joined(separator: ", ")
            if managed.isMPRISPlayer, sinks.allSatisfy(wirePlumberPauses) {
                log("\(managed.label) played on \(gone), which went away: WirePlumber pauses it (linking.pause-playback)")
                continue
            }
            log("\(managed.label) played on \(gone), which went away")
            engine.system.reportDeviceLoss(sinks.compactMap { ports[$0] }, of: [engine.id])
        }
    }

    /// Which lost sinks WirePlumber pauses MPRIS players for itself (`linking.pause-playback` on):
    /// those whose device node went away in this event — not a port unplugged on a sink that
    /// stays, which WirePlumber does not see as a removal, and not a sink that did not come back
    /// after a server restart, whose removal no running WirePlumber saw. One Pause per player: a
    /// second would restart a player whose Pause toggles.
    private func leavesDeviceLossToWirePlumber(_ change: InventoryChange) -> (String) -> Bool {
        guard case .updated = change.kind, wirePlumber?.pausePlayback == .on else { return { _ in false } }
        return { sink in change.current.device(.sink, named: sink) == nil }
    }
}
