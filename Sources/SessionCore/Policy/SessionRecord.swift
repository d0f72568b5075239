/// The engine's private state of one session.
struct SessionRecord: Sendable {
    var configuration: SessionConfiguration
    var traits: SessionTraits
    var route: AudioRoute
    var recordPermission: RecordPermission
    var isIORunning = false
    /// The owning app declared itself in background (guidelines §6).
    var isInBackground = false
    /// Index in `PolicyEngine.activeOrder` while active.
    var activeIndex: Int?
    var heldBy: InterruptionCause?
    /// Sessions this one holds interrupted, in interruption order.
    var victims: [SessionID] = []
    var isDucked = false
    var isPending = false

    var isActive: Bool { activeIndex != nil }

    /// The route has a port for every direction the category needs.
    var isRouteUsable: Bool {
        (!traits.hasOutput || !route.outputs.isEmpty) && (!traits.hasInput || !route.inputs.isEmpty)
    }
}
