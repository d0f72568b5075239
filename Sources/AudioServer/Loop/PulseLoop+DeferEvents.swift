/// Work libpulse wants done before the loop sleeps again (`pa_defer_event`), while enabled.
final class DeferEvent {
    var enabled: Bool
    let handler: () -> Void
    var destroy: (() -> Void)?
    var dead = false
    /// libpulse's `userdata` for its callbacks (nil for our own events).
    var cUserdata: UnsafeMutableRawPointer?
    weak var core: LoopCore?

    init(enabled: Bool, handler: @escaping () -> Void) {
        self.enabled = enabled
        self.handler = handler
    }
}

extension LoopCore {
    /// Frees a defer event (`defer_free`).
    func free(_ event: DeferEvent) {
        guard !event.dead else { return }
        event.dead = true
        event.enabled = false
        hasDead = true
    }

    /// Whether some defer event is enabled: then the loop must not sleep.
    var hasEnabledDefers: Bool { defers.contains { $0.enabled && !$0.dead } }

    /// Runs each enabled defer event once (those enabled meanwhile run in the next round, after a
    /// `poll` with no timeout, so io is never starved).
    func dispatchDefers() {
        let enabled = defers.filter { $0.enabled && !$0.dead }
        for event in enabled where event.enabled && !event.dead {
            event.handler()
        }
    }
}
