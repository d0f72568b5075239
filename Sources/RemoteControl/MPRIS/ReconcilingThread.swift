import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The thread that holds an endpoint's lock while it applies a change, if any: so that a refresh
/// asked for on that same thread — a `RemoteCommandCenter` observer run by `setEnabled` inside
/// the body of `MPRISEndpoint.update` — folds into the change in progress instead of locking the
/// endpoint a second time. The change reads the commands after its body, so it announces what
/// the body did, in the same `PropertiesChanged`.
final class ReconcilingThread: Sendable {
    /// `pthread_self()` of the thread inside the lock, 0 when none: only that thread stores its
    /// own id and clears it, so a thread reading its own id sees a change it made itself.
    private let owner = Atomic<UInt>(0)

    /// Called under the endpoint's lock, before the change.
    func enter() { owner.store(UInt(pthread_self()), ordering: .relaxed) }

    /// Called under the endpoint's lock, after the announcement was planned.
    func leave() { owner.store(0, ordering: .relaxed) }

    /// Whether the calling thread is the one applying a change now.
    var isCurrent: Bool { owner.load(ordering: .relaxed) == UInt(pthread_self()) }
}
