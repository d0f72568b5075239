import AudioDevices
import SessionCore
import Synchronization

/// Feeds what the machine's monitors observe into an `AudioSystem`: ports appearing and going away
/// (G-HEADPHONES-IN/OUT), the output volume (G-VOLUME: read, never written), the outputs named in
/// the configuration and the user's route pick (G-ROUTE-PICK). One per engine: the player's
/// embedded one, or the daemon's. Callable from any thread (each monitor calls from its own).
///
/// The pick is remembered even while its port is absent: routing is automatic until the port
/// appears, and the pick takes effect then (a Bluetooth headset the user chose, switched on later).
public final class SystemRouting: Sendable {
    private struct State {
        /// The port the user picked (nil: automatic), whether or not it is available now.
        var pick: String?
        /// Whether the pick was reported unavailable (said once, not on every port change).
        var pickReportedMissing = false
        /// Outputs named in the configuration: port id → ALSA PCM.
        var configuredPCMs: [String: String] = [:]
        /// Where an audio server sends new streams (its default sink's port): the route while
        /// no pick is available, instead of the engine's automatic choice (nil: automatic).
        var serverDefault: String?
        /// The sessions an audio server's streams place, while the daemon decides device loss
        /// per stream (nil: the engine's route decides for everyone).
        var placement: StreamPlacement?
    }

    /// The system the observations go to.
    public let system: AudioSystem
    private let log: @Sendable (String) -> Void
    private let state = Mutex(State())

    public init(system: AudioSystem, log: @escaping @Sendable (String) -> Void) {
        self.system = system
        self.log = log
    }

    /// Ports that are now available (plugged in, connected); a remembered pick may now apply.
    public func portsConnected(_ ports: [AudioPort]) {
        guard !ports.isEmpty else { return }
        system.connect(ports)
        applyPick()
    }

    /// Ports that went away (unplugged, disconnected, out of range), with `scope` saying whom the
    /// engine's route decides the loss for. nil: the placement does — the sessions it places are
    /// told through it where their own streams played (a jack of the card their sink is on), and
    /// the route decides only for the others; without a placement, for everyone.
    public func portsDisconnected(_ portIDs: [String], scope: DeviceLossScope? = nil) {
        guard !portIDs.isEmpty else { return }
        if let scope { return system.disconnect(portIDs, scope: scope) }
        guard let placement = state.withLock({ $0.placement }) else { return system.disconnect(portIDs) }
        let gone = Set(portIDs)
        let ports = system.conditions.availableOutputs.filter { gone.contains($0.id) }
        let placed = placement.placed()
        // The sessions the route decides for whose route did not use a lost port, as they were:
        // the engine tells them nothing, but the placement may know that their route's sink was
        // behind the port (the jack of the card the server's sink is on).
        let engine = system.engine
        var elsewhere: [SessionID: AudioRoute] = [:]
        for id in engine.activeSessions where !placed.contains(id) {
            guard let route = engine.session(id)?.route, !gone.contains(where: { route.contains(portID: $0) }) else { continue }
            elsewhere[id] = route
        }
        system.disconnect(portIDs, scope: .sessionsNotIn(placed))
        if !ports.isEmpty { placement.portsGone(ports, elsewhere) }
    }

    /// From now on the sessions `placement` places are decided by their streams (nil: by the
    /// engine's route again).
    public func decideLoss(by placement: StreamPlacement?) {
        state.withLock { $0.placement = placement }
    }

    /// The system output volume changed (muted counts as 0).
    public func outputVolumeChanged(_ volume: OutputVolume) {
        try? system.setOutputVolume(volume.muted ? 0 : volume.level)
    }

    /// Makes the outputs of the configuration available as pick-only ports.
    public func addConfiguredOutputs(_ outputs: [ConfiguredOutput]) {
        guard !outputs.isEmpty else { return }
        state.withLock { state in
            for output in outputs { state.configuredPCMs[output.id] = output.pcm }
        }
        portsConnected(outputs.map(\.port))
    }

    /// Remembers which PCM each configured output plays through, without offering the ports to
    /// `system` (a player whose routes the daemon decides).
    public func rememberConfiguredPCMs(_ outputs: [ConfiguredOutput]) {
        state.withLock { state in
            for output in outputs { state.configuredPCMs[output.id] = output.pcm }
        }
    }

    /// The ALSA PCM of a configured output port; nil for every other port.
    public func configuredPCM(forPort portID: String) -> String? {
        state.withLock { $0.configuredPCMs[portID] }
    }

    /// The user's pick now (nil: automatic), available or not.
    public var pick: String? { state.withLock { $0.pick } }

    /// The user picked `portID` (nil: automatic).
    public func routePicked(_ portID: String?) {
        state.withLock { state in
            state.pick = portID
            state.pickReportedMissing = false
        }
        applyPick()
    }

    /// The audio server's default sink after one of its changes (nil: none): without an
    /// available pick, the route is that sink. Called after every change, so that a route the
    /// change took away lands there again.
    public func serverDefaultChanged(_ portID: String?) {
        state.withLock { $0.serverDefault = portID }
        applyPick()
    }

    /// Brings the engine's override in line with the user's pick, as far as the ports allow;
    /// without one, with the audio server's default sink where one is known.
    private func applyPick() {
        let (pick, serverDefault) = state.withLock { ($0.pick, $0.serverDefault) }
        let conditions = system.conditions
        let isAvailable = { (id: String) in conditions.availableOutputs.contains { $0.id == id } }
        if let pick, !isAvailable(pick) {
            let first = state.withLock { state in
                defer { state.pickReportedMissing = true }
                return !state.pickReportedMissing
            }
            let fallback = serverDefault.flatMap { isAvailable($0) ? $0 : nil }
            if first { log("picked output \(pick) is not available; \(fallback.map { "\($0), the server's default," } ?? "automatic routing") until it is") }
            if conditions.routeOverride != fallback { try? system.setRouteOverride(fallback) }
            return
        }
        if pick == nil, let serverDefault, isAvailable(serverDefault) {
            guard conditions.routeOverride != serverDefault else { return }
            do {
                try system.setRouteOverride(serverDefault)
                log("route: \(serverDefault) (the audio server's default)")
            } catch {
                log("cannot route to \(serverDefault): \(error)")
            }
            return
        }
        guard pick != conditions.routeOverride else { return }
        do {
            try system.setRouteOverride(pick)
            log(pick.map { "route: \($0) (picked)" } ?? "route: automatic")
        } catch {
            log("cannot pick output \(pick ?? "auto"): \(error)")
        }
    }
}

/// Where an audio server's streams say each session plays, for the ports no server reports
/// itself (the jacks the daemon reads, BlueZ devices): `SystemRouting` spares the sessions it
/// places from the engine's route (one device for everyone) and tells it what went away.
public struct StreamPlacement: Sendable {
    /// The sessions whose streams are known now.
    public var placed: @Sendable () -> Set<SessionID>
    /// Ports that went away: the placed sessions audible through them lose their device; so do
    /// the others (active, their route as it was before, which used none of the ports) whose
    /// route's output is behind one of them.
    public var portsGone: @Sendable (_ ports: [AudioPort], _ unplaced: [SessionID: AudioRoute]) -> Void

    public init(placed: @escaping @Sendable () -> Set<SessionID>,
                portsGone: @escaping @Sendable (_ ports: [AudioPort], _ unplaced: [SessionID: AudioRoute]) -> Void) {
        self.placed = placed
        self.portsGone = portsGone
    }
}
