import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A thread of its own that sleeps in `poll()` on a few descriptors plus a `WakeEvent`, with no
/// timeout: while nothing happens on them it never wakes (a daemon using it is idle at zero
/// wake-ups per second). `stop()` signals the event and joins the thread.
///
/// The descriptors go to `Work.handle` with their `revents` filled; it returns `false` when what it
/// watches is gone, which ends the thread. A failing `poll` ends it too (`Poll`'s rule).
/// `Work.finish` runs last on the thread, however the loop ended, with the error that ended it, if
/// any: it closes what the thread watched and reports the failure.
public final class PollThread: Sendable {
    private let wake: WakeEvent
    private let thread: Mutex<NamedThread?>

    /// What the thread does: `handle` gets the descriptors with their `revents` filled and returns
    /// false when what it watches is gone; `finish` runs last. Not Sendable: handed over whole to
    /// the thread, with whatever the closures capture (a device that `finish` closes).
    public struct Work {
        public var handle: (inout [pollfd]) -> Bool
        public var finish: (PosixError?) -> Void

        public init(handle: @escaping (inout [pollfd]) -> Bool, finish: @escaping (PosixError?) -> Void) {
            self.handle = handle
            self.finish = finish
        }
    }

    /// Starts the thread, named `name` (at most 15 bytes, shown in `/proc/PID/task/TID/comm`).
    /// `work` is handed over (`sending`): what it captures belongs to the thread from now on.
    /// `work.finish` runs exactly once: on the thread when it ends, or — when no eventfd or thread
    /// can be made — at once on the caller's thread with that error, which is then thrown.
    public init(name: String, descriptors: [pollfd], work: sending Work) throws(PosixError) {
        let wake: WakeEvent
        do throws(PosixError) {
            wake = try WakeEvent()
        } catch {
            work.finish(error)
            throw error
        }
        self.wake = wake
        thread = Mutex(try NamedThread.start(name: name, runningOnce: { failure in
            if let failure { return work.finish(failure) }
            work.finish(PollThread.run(descriptors: descriptors, wake: wake, handle: work.handle))
        }))
    }

    deinit {
        stop()
    }

    /// Wakes the thread and waits for it to end (`finish` has run when this returns). Called on the
    /// thread itself (from `handle`), it only asks it to end after the current round.
    public func stop() {
        guard let thread = self.thread.withLock({ state -> NamedThread? in
            defer { state = nil }
            return state
        }) else { return }
        wake.signal()
        if thread.isCurrent {
            thread.detach()
        } else {
            thread.join()
        }
    }

    /// `poll` on the descriptors and the wake event until the event is signalled, `poll` fails
    /// (returned), or `handle` says what it watches is gone.
    private static func run(descriptors: [pollfd], wake: WakeEvent,
                            handle: (inout [pollfd]) -> Bool) -> PosixError? {
        var all = descriptors + [wake.pollDescriptor]
        let watched = descriptors.count
        while true {
            do throws(PosixError) {
                guard try Poll.wait(&all) > 0 else { continue }
            } catch {
                return error
            }
            if all[watched].revents != 0 { return nil }
            var mine = Array(all[0..<watched])
            guard mine.contains(where: { $0.revents != 0 }) else { continue }
            guard handle(&mine) else { return nil }
        }
    }
}
