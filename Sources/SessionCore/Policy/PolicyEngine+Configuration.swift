/// Configuration changes (G-CAT-OPTIONS, G-CAT-STABLE).
extension PolicyEngine {
    /// Sets category, mode and options of session `id`.
    ///
    /// An option that does not fit the category throws `badParam(.optionNotAllowed(option:category:))`
    /// and the previous configuration stays. Options are not sticky: `configuration.options` is the
    /// whole new set. A mode not valid for the category behaves as `.default` and is reported in
    /// `ignoredMode`. When the category changes the session receives a route change with reason
    /// `categoryChange`. An active session is re-arbitrated under its new configuration as if it
    /// activated now; if that activation would be refused (locked, no permission, a call owns
    /// audio) the change throws that error and nothing changes.
    public mutating func configure(_ id: SessionID,
                                   _ configuration: SessionConfiguration) throws(SessionError)
        -> ConfigurationChange {
        guard let record = records[id] else { throw .badParam(.unknownSession(id)) }
        let validated = try configuration.validated()
        let effective = validated.effective
        var updated = record
        updated.configuration = effective
        updated.traits = SessionTraits(effective)
        updated.route = RouteSelection.route(for: effective, in: conditions)
        if record.isActive {
            if let error = activationError(updated) { throw error }
            let otherCalls = activeCallCount - (record.traits.isCall ? 1 : 0)
            if otherCalls > 0 && InterruptionRules.isRefusedDuringCall(updated.traits) {
                throw .insufficientPriority
            }
            leaveActive(id)
            adopt(updated, for: id)
            applyRules(of: id, traits: updated.traits)
            enterActive(id)
        } else {
            adopt(updated, for: id)
        }
        if record.configuration.category != effective.category || record.route != updated.route {
            let reason: RouteChangeReason = updated.isRouteUsable ? .categoryChange : .noSuitableRouteForCategory
            emit(id, .routeChange(RouteChangeEvent(reason: reason, previousRoute: record.route,
                                                   currentRoute: updated.route)))
        }
        enforceSystemBlocks()
        finish()
        return ConfigurationChange(configuration: effective, ignoredMode: validated.ignoredMode,
                                   effects: takeEffects())
    }

    /// Copies the configuration-derived fields of `updated` into the live record (the rest of the
    /// record — active index, victims, holds — may have changed since `updated` was copied).
    private mutating func adopt(_ updated: SessionRecord, for id: SessionID) {
        records[id]?.configuration = updated.configuration
        records[id]?.traits = updated.traits
        records[id]?.route = updated.route
    }
}
