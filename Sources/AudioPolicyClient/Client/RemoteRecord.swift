import DBus
import SessionCore

/// What a `PolicyClient` remembers of one of its sessions: enough to register it again with a
/// restarted daemon, and where it lives on the current one.
struct RemoteRecord: Sendable {
    /// The session object, for delivering events (weak: releasing the `RemoteSession`
    /// unregisters it). Only read outside the client's lock: a strong reference taken and dropped
    /// under it could be the last one, and the session's deinit takes that lock.
    let session: WeakSession
    var configuration: SessionConfiguration
    var name: String
    /// Registered with `manageStreams` (kept for a re-registration with a restarted daemon).
    var manageStreams = false
    /// Its object on the current daemon; nil while there is none (daemon gone, re-registering).
    var path: ObjectPath?
    /// Active as far as the client knows (activated, not since deactivated or interrupted).
    var isActive = false
    /// Was active when the daemon went: activate again after registering with the new one.
    var reactivate = false

    /// Follows the engine's decisions that change activity.
    mutating func apply(_ event: SessionEvent) {
        switch event {
        case .interruption(.began): isActive = false
        case .delayedActivation(.granted): isActive = true
        case .mediaServicesLost: isActive = false
        default: break
        }
    }
}

/// A weak reference to a `RemoteSession`, shared between its record and the queued deliveries.
final class WeakSession: Sendable {
    // `weak let` is enough: the reference is only ever cleared by the runtime.
    weak let session: RemoteSession?

    init(_ session: RemoteSession) {
        self.session = session
    }
}
