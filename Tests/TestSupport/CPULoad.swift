import Foundation
import Synchronization

/// Busy threads that keep every core occupied while a test runs, so the threads under test are
/// preempted at arbitrary points (orderings that an idle machine almost never shows).
public final class CPULoad: Sendable {
    private let running = Atomic<Bool>(true)

    /// Starts `threads` busy threads (default: twice the cores, so there are always more runnable
    /// threads than cores).
    public init(threads: Int = 2 * ProcessInfo.processInfo.activeProcessorCount) {
        for index in 0..<threads {
            let thread = Thread { [self] in
                var counter: UInt64 = 0
                while running.load(ordering: .relaxed) { counter &+= 1 }
            }
            thread.name = "cpu-load-\(index)"
            thread.start()
        }
    }

    /// Ends the busy threads (they leave their loop at once).
    public func stop() {
        running.store(false, ordering: .relaxed)
    }

    deinit { stop() }
}
