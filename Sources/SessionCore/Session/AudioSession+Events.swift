/// Events of a session as async sequences and callbacks. Every access to a stream property makes a
/// new, unbounded subscription that ends when the session is released, after the events queued
/// before the release.
extension AudioSession {
    /// Every event of this session.
    public var events: AsyncStream<SessionEvent> { hub.stream { $0 } }

    /// Interruption began/ended (G-INT-KINDS, G-INT-UI, G-INT-RESUME).
    public var interruptions: AsyncStream<InterruptionEvent> {
        hub.stream { if case .interruption(let event) = $0 { event } else { nil } }
    }

    /// Route changes with reason and previous route (G-HEADPHONES-IN/OUT, G-ROUTE-PICK).
    public var routeChanges: AsyncStream<RouteChangeEvent> {
        hub.stream { if case .routeChange(let event) = $0 { event } else { nil } }
    }

    /// Silence-secondary-audio hint begin/end (G-APP-GAME).
    public var secondaryAudioHints: AsyncStream<SecondaryAudioHint> {
        hub.stream { if case .secondaryAudioHint(let hint) = $0 { hint } else { nil } }
    }

    /// Media services reset: rebuild players and reconfigure.
    public var mediaServicesResets: AsyncStream<Void> {
        hub.stream { if case .mediaServicesReset = $0 { () } else { nil } }
    }

    /// The system output volume (G-VOLUME).
    public var outputVolumeChanges: AsyncStream<Double> {
        hub.stream { if case .outputVolumeChanged(let volume) = $0 { volume } else { nil } }
    }

    /// Calls `handler` for every event, in decision order, on the system's event thread — never
    /// inside the call that caused the event, so the handler may take a lock the caller holds
    /// around that call, and may call back into any session. A new subscription receives what is
    /// delivered from then on (an event decided a moment before may still be on its way). Keep the
    /// subscription: releasing it cancels.
    public func onEvent(_ handler: @escaping @Sendable (SessionEvent) -> Void) -> EventSubscription {
        let hub = self.hub
        let token = hub.add(deliver: handler, finish: {})
        return EventSubscription { if let token { hub.remove(token) } }
    }
}
