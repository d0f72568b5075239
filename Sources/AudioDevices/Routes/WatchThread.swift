import Posix
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A thread of its own that sleeps in `poll()` on a device's descriptors plus a `WakeEvent`, with
/// no timeout: while nothing happens on the device it never wakes (a daemon using it is idle at
/// zero wake-ups per second). `stop()` signals the event and joins the thread.
///
/// The device's descriptors go to `handle` with their `revents` filled; `handle` returns `false`
/// when the device is gone, which ends the thread. `finish` runs last on the thread (it closes the
/// device), however the loop ended.
final class WatchThread: Sendable {
    private let wake: WakeEvent
    private let thread: Mutex<NamedThread?>

    /// Starts the thread, named `name` (at most 15 bytes, shown in `/proc/PID/task/TID/comm`).
    /// Returns `nil` (and runs neither closure) when no eventfd or thread can be made; `errno`-style
    /// code in `failure`.
    init?(name: String, descriptors: [pollfd], handle: @escaping (inout [pollfd]) -> Bool,
          finish: @escaping () -> Void, failure: inout Int32) {
        do throws(PosixError) {
            let wake = try WakeEvent()
            self.wake = wake
            self.thread = Mutex(try NamedThread.start(name: name) {
                WatchThread.run(descriptors: descriptors, wake: wake, handle: handle)
                finish()
            })
        } catch {
            failure = error.code
            return nil
        }
    }

    deinit {
        stop()
    }

    /// Wakes the thread and waits for it to end (`finish` has run when this returns). Called on the
    /// thread itself (from `handle`'s callbacks), it only asks it to end after the current round.
    func stop() {
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

    /// `poll` on the device's descriptors and the wake event until the event is signalled, `poll`
    /// fails, or `handle` says the device is gone.
    private static func run(descriptors: [pollfd], wake: WakeEvent, handle: (inout [pollfd]) -> Bool) {
        var all = descriptors + [wake.pollDescriptor]
        let device = descriptors.count
        while true {
            for index in all.indices { all[index].revents = 0 }
            let ready = poll(&all, nfds_t(all.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if all[device].revents != 0 { return }
            var mine = Array(all[0..<device])
            guard mine.contains(where: { $0.revents != 0 }) else { continue }
            guard handle(&mine) else { return }
        }
    }
}
