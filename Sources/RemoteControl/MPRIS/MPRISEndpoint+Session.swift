import SessionCore

/// Ties to SessionCore (G-APP-COOP, G-INT-UI).
extension MPRISEndpoint {
    /// Attaches the app's audio session (nil detaches): while the session mixes with others
    /// (ambient, `mixWithOthers`, `duckOthers`…) the endpoint never owns the name — a cooperative
    /// app never takes remote control (G-APP-COOP); while the session is interrupted a playing app
    /// shows `Paused` and keeps its name, so a headset can resume it (G-INT-UI).
    ///
    /// The gate is re-evaluated on every session event (where the session delivers them: its
    /// event thread, outside any call into the session); after `setCategory` (which sends none),
    /// call `refresh()`. The endpoint keeps the session alive while attached.
    public func attach(_ session: (any AudioSessionHandle)?) {
        let subscription = session?.onEvent { [weak self] _ in self?.refresh() }
        var previous: EventSubscription?
        reconcile { state in
            previous = state.sessionSubscription
            state.session = session
            state.sessionSubscription = subscription
        }
        previous?.cancel()
    }
}
