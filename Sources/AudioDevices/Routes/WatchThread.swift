import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A thread of its own that sleeps in `poll()` on a device's descriptors plus the read end of a wake
/// pipe, with no timeout: while nothing happens on the device it never wakes (a daemon using it is
/// idle at zero wake-ups per second). `stop()` writes the pipe and joins the thread.
///
/// The device's descriptors go to `handle` with their `revents` filled; `handle` returns `false`
/// when the device is gone, which ends the thread. `finish` runs last on the thread (it closes the
/// device), however the loop ended.
///
/// A pipe, not an eventfd: `sys/eventfd.h` is outside the Glibc module and this target does not
/// depend on CLinux; for one wake-up per lifetime the two are equivalent.
final class WatchThread: Sendable {
    private let wake: WakePipe
    private let thread: Mutex<pthread_t?>

    /// Starts the thread, named `name` (at most 15 bytes, shown in `/proc/PID/task/TID/comm`).
    /// Returns `nil` (and runs neither closure) when no pipe or thread can be made; `errno`-style
    /// code in `failure`.
    init?(name: String, descriptors: [pollfd], handle: @escaping (inout [pollfd]) -> Bool,
          finish: @escaping () -> Void, failure: inout Int32) {
        guard let wake = WakePipe() else {
            failure = errno
            return nil
        }
        self.wake = wake
        let start = ThreadStart {
            WatchThread.nameCurrentThread(name)
            WatchThread.run(descriptors: descriptors, wake: wake, handle: handle)
            finish()
        }
        let argument = Unmanaged.passRetained(start).toOpaque()
        var thread = pthread_t()
        let code = pthread_create(&thread, nil, { argument in
            guard let argument else { return nil }
            Unmanaged<ThreadStart>.fromOpaque(argument).takeRetainedValue().body()
            return nil
        }, argument)
        guard code == 0 else {
            Unmanaged<ThreadStart>.fromOpaque(argument).release()
            failure = code
            return nil
        }
        self.thread = Mutex(thread)
    }

    deinit {
        stop()
    }

    /// Wakes the thread and waits for it to end (`finish` has run when this returns). Called on the
    /// thread itself (from `handle`'s callbacks), it only asks it to end after the current round.
    func stop() {
        guard let thread = self.thread.withLock({ state -> pthread_t? in
            defer { state = nil }
            return state
        }) else { return }
        wake.signal()
        if pthread_equal(thread, pthread_self()) != 0 {
            pthread_detach(thread)
        } else {
            pthread_join(thread, nil)
        }
    }

    /// `poll` on the device's descriptors and the wake pipe until the pipe is written, `poll`
    /// fails, or `handle` says the device is gone.
    private static func run(descriptors: [pollfd], wake: WakePipe, handle: (inout [pollfd]) -> Bool) {
        var all = descriptors + [pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0)]
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

    /// Names the calling thread through `/proc/thread-self/comm` (`pthread_setname_np` is hidden
    /// from the Glibc module).
    private static func nameCurrentThread(_ name: String) {
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }
}

/// What `pthread_create` hands the new thread: its body, retained once for it and released there.
/// Not Sendable on purpose: the body (and the device handle it captures) belongs to that one thread.
private final class ThreadStart {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

/// A non-blocking, close-on-exec pipe that wakes the watching thread; both ends close when the last
/// holder (the thread or its owner) lets go.
private final class WakePipe: Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    init?() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Writes one byte (a full pipe already wakes the reader, so a failed write is fine).
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }
}
