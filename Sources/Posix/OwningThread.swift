import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Which thread a loop runs on, once it runs: the thread claims it when it starts, and anyone can
/// ask whether they run there (what `LoopBound` checks).
public final class OwningThread: Sendable {
    private let id = Atomic<UInt>(0)

    public init() {}

    /// The calling thread is the owner from now on.
    public func claim() {
        id.store(UInt(pthread_self()), ordering: .releasing)
    }

    /// Whether the caller runs on the owning thread (false before one claimed it).
    public var isCurrent: Bool {
        let owner = id.load(ordering: .acquiring)
        return owner != 0 && owner == UInt(pthread_self())
    }
}
