import Synchronization

/// Keeps a name owner watch's reports in the bus's order: once a `NameOwnerChanged` has been
/// reported, the answer to the watch's `GetNameOwner` (asked before it, answered perhaps after)
/// is older news and must not be reported over it.
final class OwnerReportOrder: Sendable {
    private let changeSeen = Mutex(false)

    /// A `NameOwnerChanged` for the name is being reported.
    func changeAnnounced() {
        changeSeen.withLock { $0 = true }
    }

    /// Whether the answer to `GetNameOwner` is still the newest news about the owner.
    func answerIsCurrent() -> Bool {
        !changeSeen.withLock { $0 }
    }
}
