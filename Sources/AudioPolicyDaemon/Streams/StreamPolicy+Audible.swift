import AudioServer
import SessionCore

/// Where each session is audible, from its own streams: its device loss (G-HEADPHONES-OUT per
/// stream — when sinks go away, the sessions whose streams played there, and only those, get
/// `oldDeviceUnavailable` from the engine, so that a player pauses when its headphones go and
/// nobody pauses when a monitor nobody plays on sleeps), and the status.
extension StreamPolicy {
    /// Session number → the sinks its streams play on, while a server is connected (nil: none).
    public func audibleSinks() -> [UInt64: [String]]? {
        state.withLock { state in
            guard state.inventory.server != nil else { return nil }
            return state.audible.bySession.mapValues { $0.sorted() }
        }
    }

    /// The engine's sessions placed by their streams now: a connected server shows a playback
    /// stream of theirs on a sink. The engine's route never decides their device loss
    /// (`DeviceLossScope`); their streams do.
    public func placedSessions() -> Set<SessionID> {
        state.withLock { state in
            guard state.inventory.server != nil, !state.stopped else { return [] }
            return Set(state.audible.bySession.keys.compactMap { state.sessions[$0]?.engine?.id })
        }
    }

    /// Ports that no server reports went away (a jack of a card the daemon reads itself): the
    /// sessions audible on the sinks behind them (`sinks`, from the inventory now) lose their
    /// device. On the policy's thread, in line with the server's changes; the sink stays, so
    /// where its streams' sound went is unknown, and privacy wins.
    ///
    /// `unplaced`: the active sessions of `system` no stream placed when the ports went, with
    /// their routes then (none used a lost port). Such a session (a player straight to ALSA, its stream not
    /// seen yet) plays, as far as the engine knows, on its route's sink — the server's sink for
    /// new streams. Where that sink is behind a lost port, it lost its device too: the jack of
    /// its card is still its rule (`DeviceLossScope.sessionsNotIn`), and the engine, whose route
    /// names the sink and not the jack, does not tell it. One that a stream has placed since is
    /// decided by that stream alone.
    public func portsGone(_ ports: [AudioPort], unplaced: [SessionID: AudioRoute] = [:], of system: AudioSystem? = nil,
                          sessions: SessionDirectory? = nil, sinks: @escaping @Sendable (AudioPort, AudioInventory) -> [String]) {
        thread.enqueue { [weak self] in
            guard let self else { return }
            let (behind, placed) = state.withLock { state -> ([String: AudioPort], Set<SessionID>) in
                guard state.inventory.server != nil, !state.stopped else { return ([:], []) }
                var behind: [String: AudioPort] = [:]
                for port in ports {
                    for sink in sinks(port, state.inventory) where behind[sink] == nil { behind[sink] = port }
                }
                return (behind, Set(state.audible.bySession.keys.compactMap { state.sessions[$0]?.engine?.id }))
            }
            reportDeviceLoss(behind, destination: nil, wirePlumberPauses: { _ in false })
            guard let system else { return }
            for (id, port, sink) in Self.routeLosses(unplaced, behind: behind, placed: placed) {
                let label = sessions?.label(of: id) ?? "session \(id.rawValue)"
                log("\(label) has no known stream and plays on \(sink), whose \(port.name) went away")
                system.reportDeviceLoss([port], of: [id])
            }
        }
    }

    /// The sessions of `unplaced` (not in `placed`) whose route's output is a server sink in
    /// `behind`, each with the lost port and that sink, in the order of their ids. Pure.
    static func routeLosses(_ unplaced: [SessionID: AudioRoute], behind: [String: AudioPort],
                            placed: Set<SessionID>) -> [(SessionID, AudioPort, String)] {
        guard !behind.isEmpty else { return [] }
        return unplaced.sorted { $0.key < $1.key }.compactMap { id, route in
            guard !placed.contains(id) else { return nil }
            for output in route.outputs {
                if let sink = ServerSinkPort.sinkName(ofPort: output.id), let port = behind[sink] { return (id, port, sink) }
            }
            return nil
        }
    }

    /// Tells the engine which sessions played on `lost`, sinks that went away in `change` (on the
    /// policy's thread, before the change is applied: `AudibleSinks` holds where each was
    /// audible until now).
    func reportDeviceLoss(_ lost: [AudioPort], in change: InventoryChange) {
        guard !lost.isEmpty else { return }
        let ports = Dictionary(lost.map { (ServerSinkPort.sinkName(ofPort: $0.id) ?? $0.id, $0) }) { first, _ in first }
        reportDeviceLoss(ports, destination: change.current.defaultSink,
                         wirePlumberPauses: leavesDeviceLossToWirePlumber(change))
    }

    /// Sink name → the port lost with it: the sessions audible there lose their device, each told
    /// of the ports it lost; `destination`: where the server sends their streams now (nil:
    /// unknown); `wirePlumberPauses`: the sinks whose MPRIS players WirePlumber pauses itself.
    private func reportDeviceLoss(_ ports: [String: AudioPort], destination: String?,
                                  wirePlumberPauses: (String) -> Bool) {
        guard !ports.isEmpty else { return }
        let losers = state.withLock { state -> [(Managed, [String])] in
            guard !state.stopped else { return [] }
            let losses = state.audible.losses(of: Set(ports.keys), destination: destination)
            return losses.sorted { $0.key < $1.key }.compactMap { number, sinks in
                state.sessions[number].map { ($0, sinks) }
            }
        }
        for (managed, sinks) in losers {
            guard let engine = managed.engine else { continue }
            let gone = sinks.joined(separator: ", ")
            if managed.isMPRISPlayer, sinks.allSatisfy(wirePlumberPauses) {
                log("\(managed.label) played on \(gone), which went away: WirePlumber pauses it (linking.pause-playback)")
                continue
            }
            let through = Set(sinks.compactMap { ports[$0] }).sorted { $0.id < $1.id }
            let unplugged = through.filter { ServerSinkPort.sinkName(ofPort: $0.id) == nil }.map(\.name)
            log("\(managed.label) played on \(gone), which went away" + (unplugged.isEmpty ? "" : " (\(unplugged.joined(separator: ", ")) unplugged)"))
            engine.system.reportDeviceLoss(through, of: [engine.id])
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
