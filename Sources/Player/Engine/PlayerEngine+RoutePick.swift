import AudioDevices
import SessionCore
import SessionService

/// What the player knows of the user's route pick (G-ROUTE-PICK).
struct RoutingState {
    /// The port the user picked (nil: automatic), whether or not it is available now.
    var pick: String?
    /// Whether the pick was reported unavailable (said once, not on every port change).
    var pickReportedMissing = false
    /// Outputs named in the configuration: port id → ALSA PCM.
    var configuredPCMs: [String: String] = [:]
}

/// The user's route pick: a route change with reason *override* that never pauses, and — when the
/// picked port is an ALSA device named in the configuration — playback moving to that device
/// without a gap the listener would notice (the position is kept to the frame heard last).
extension PlayerEngine {
    /// Makes the outputs of the configuration available as pick-only ports.
    public func addConfiguredOutputs(_ outputs: [ConfiguredOutput]) {
        guard !outputs.isEmpty else { return }
        routing.withLock { state in
            for output in outputs { state.configuredPCMs[output.id] = output.pcm }
        }
        portsConnected(outputs.map(\.port))
    }

    /// The user picked `portID` (nil: automatic). A port that is not available now is remembered
    /// and used as soon as it appears; until then routing is automatic.
    public func routePicked(_ portID: String?) {
        routing.withLock { state in
            state.pick = portID
            state.pickReportedMissing = false
        }
        applyRoutePick()
    }

    /// Brings the engine's override in line with the user's pick, as far as the ports allow.
    func applyRoutePick() {
        let pick = routing.withLock { $0.pick }
        let conditions = system.conditions
        guard pick != conditions.routeOverride else { return }
        if let pick, !conditions.availableOutputs.contains(where: { $0.id == pick }) {
            let first = routing.withLock { state in
                defer { state.pickReportedMissing = true }
                return !state.pickReportedMissing
            }
            if first { log.message("picked output \(pick) is not available; automatic routing until it is") }
            if conditions.routeOverride != nil { try? system.setRouteOverride(nil) }
            return
        }
        do {
            try system.setRouteOverride(pick)
            log.message(pick.map { "route: \($0) (picked)" } ?? "route: automatic")
        } catch {
            log.message("cannot pick output \(pick ?? "auto"): \(error)")
        }
    }

    /// The session's route changed: play through the configured PCM of its output port, or the
    /// player's own device for every other port (jacks and Bluetooth are reached through it).
    func follow(_ route: AudioRoute) {
        let device = routing.withLock { state in
            route.outputs.first.flatMap { state.configuredPCMs[$0.id] }
        } ?? options.device
        let changed = shared.withLock { state in
            defer { state.outputDevice = device }
            return state.outputDevice != device
        }
        if changed { change { _ in } }
    }
}
