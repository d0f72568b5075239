/// Routes: devices appearing and disappearing, the user's route pick and other route events
/// (G-HEADPHONES-IN, G-HEADPHONES-OUT, G-ROUTE-PICK). Each session whose route changed receives a
/// route change with the reason and its previous route; a session that lost its route's port gets
/// `oldDeviceUnavailable` (media apps pause), one that lost every usable port gets
/// `noSuitableRouteForCategory` and, if active, an interruption `routeDisconnected`.
extension PolicyEngine {
    /// Ports appeared (jack plugged, Bluetooth device connected). A port with a known id is replaced.
    /// Sessions that move to them get `newDeviceAvailable`: playback continues (G-HEADPHONES-IN).
    public mutating func connect(_ ports: [AudioPort]) -> [PolicyEffect] {
        // A port connected again replaces its old entry and goes last; of ports given twice the
        // last one counts. One pass over each list, so thousands of configured outputs stay cheap.
        var last: [String: Int] = [:]
        for (index, port) in ports.enumerated() { last[port.id] = index }
        conditions.availableOutputs.removeAll { last[$0.id] != nil }
        conditions.availableInputs.removeAll { last[$0.id] != nil }
        for (index, port) in ports.enumerated() where last[port.id] == index {
            if port.type.isOutput { conditions.availableOutputs.append(port) }
            if port.type.isInput { conditions.availableInputs.append(port) }
        }
        reroute(reason: .newDeviceAvailable, removed: [], everySession: false)
        return takeEffects()
    }

    /// Ports went away (unplugged, out of range, powered off). Sessions whose route used one get
    /// `oldDeviceUnavailable` (G-HEADPHONES-OUT) — those `scope` leaves to the route. A user pick
    /// of a removed port is cleared.
    ///
    /// A session the caller places (`DeviceLossScope`: an audio server's streams say where it
    /// plays) is never paused by the route: the caller names it with `reportDeviceLoss` where its
    /// own sink went; if it moves, it gets `routeConfigurationChange` (still
    /// `noSuitableRouteForCategory` when nothing usable is left).
    public mutating func disconnect(_ portIDs: [String], scope: DeviceLossScope = .everySession) -> [PolicyEffect] {
        let removed = Set(portIDs)
        conditions.availableOutputs.removeAll { removed.contains($0.id) }
        conditions.availableInputs.removeAll { removed.contains($0.id) }
        if let picked = conditions.routeOverride, removed.contains(picked) { conditions.routeOverride = nil }
        reroute(reason: .oldDeviceUnavailable, removed: removed, everySession: false, scope: scope)
        return takeEffects()
    }

    /// `sessions` were playing on `lost`, which went away (G-HEADPHONES-OUT, decided per stream
    /// by the caller; see `disconnect(_:scope:)`): each existing one gets
    /// `oldDeviceUnavailable` with `lost` as its previous outputs, and media apps pause. Unknown
    /// ids are ignored (a session removed meanwhile).
    public mutating func reportDeviceLoss(_ lost: [AudioPort], of sessions: [SessionID]) -> [PolicyEffect] {
        guard !lost.isEmpty else { return [] }
        for id in sessions {
            guard let record = records[id] else { continue }
            let previous = AudioRoute(inputs: record.route.inputs, outputs: lost)
            emit(id, .routeChange(RouteChangeEvent(reason: .oldDeviceUnavailable, previousRoute: previous,
                                                   currentRoute: record.route)))
        }
        return takeEffects()
    }

    /// The user picks a port (or nil for automatic routing); sessions that move get `override` and
    /// keep playing (G-ROUTE-PICK). Throws `badParam` for a port that is not available.
    public mutating func setRouteOverride(_ portID: String?) throws(SessionError) -> [PolicyEffect] {
        if let portID, !(conditions.availableOutputs + conditions.availableInputs).contains(where: { $0.id == portID }) {
            throw .badParam(.unknownPort(portID))
        }
        guard portID != conditions.routeOverride else { return [] }
        conditions.routeOverride = portID
        reroute(reason: .override, removed: [], everySession: false)
        return takeEffects()
    }

    /// A route event without a change of ports: `wakeFromSleep`, `routeConfigurationChange` or
    /// `unknown`; every session receives it. Other reasons have their own entry points (`badParam`).
    public mutating func reportRouteEvent(_ reason: RouteChangeReason) throws(SessionError) -> [PolicyEffect] {
        switch reason {
        case .wakeFromSleep, .routeConfigurationChange, .unknown:
            reroute(reason: reason, removed: [], everySession: true)
            return takeEffects()
        default:
            throw .badParam(.reasonNotReportable(reason))
        }
    }

    /// Recomputes every session's route and reports changes. O(registered sessions).
    /// `scope`: whom a removal in `removed` may give `oldDeviceUnavailable` (the others that
    /// move get `routeConfigurationChange`).
    mutating func reroute(reason: RouteChangeReason, removed: Set<String>, everySession: Bool,
                          scope: DeviceLossScope = .everySession) {
        for id in records.ids {
            guard let record = records[id] else { continue }
            let route = RouteSelection.route(for: record.configuration, in: conditions)
            guard everySession || route != record.route else { continue }
            records[id]?.route = route
            var sessionReason = reason
            if route != record.route, let updated = records[id], !updated.isRouteUsable {
                sessionReason = .noSuitableRouteForCategory
            } else if !removed.isEmpty
                        && (!scope.decidesByRoute(id) || !removed.contains(where: { record.route.contains(portID: $0) })) {
                sessionReason = .routeConfigurationChange
            }
            emit(id, .routeChange(RouteChangeEvent(reason: sessionReason, previousRoute: record.route,
                                                   currentRoute: route)))
        }
        enforceSystemBlocks()
        finish()
    }
}
