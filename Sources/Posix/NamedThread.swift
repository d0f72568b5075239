import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// A POSIX thread with a name of its own in `/proc/PID/task/TID/comm` (what `top -H`, `ps -L` and
/// the wake-up benchmarks show), running one closure. Joined or detached exactly once by its owner.
public struct NamedThread: Sendable {
    /// The `pthread_t`.
    public let handle: pthread_t

    /// Starts a thread named `name` running `body`: `pthread_create`, then
    /// `pthread_setname_np(pthread_self(), name)` on the new thread before `body` runs. Names are
    /// cut to the kernel's 15 bytes.
    ///
    /// `body` is handed over to the new thread (`sending`): whatever it captures belongs to that
    /// thread from now on, and the compiler holds the caller to it. On failure, `body` never runs
    /// and is released here.
    public static func start(name: String, _ body: sending @escaping () -> Void) throws(PosixError) -> NamedThread {
        try start(name: name, runningOnce: { failure in
            if failure == nil { body() }
        })
    }

    /// Starts a thread as `start(name:_:)` does, running `body(nil)`; when no thread can be started,
    /// runs `body(error)` on the caller's thread instead, then throws the error. Either way `body`
    /// runs exactly once, so what it was handed (a device to close) is released by it alone.
    public static func start(name: String,
                             runningOnce body: sending @escaping (PosixError?) -> Void) throws(PosixError) -> NamedThread {
        let start = ThreadStart(name: name, body: body)
        let argument = Unmanaged.passRetained(start).toOpaque()
        var handle = pthread_t()
        let code = pthread_create(&handle, nil, { argument in
            guard let argument else { return nil }
            let start = Unmanaged<ThreadStart>.fromOpaque(argument).takeRetainedValue()
            start.run()
            return nil
        }, argument)
        guard code == 0 else {
            let error = PosixError("pthread_create", code: code)
            Unmanaged<ThreadStart>.fromOpaque(argument).takeRetainedValue().body(error)
            throw error
        }
        return NamedThread(handle: handle)
    }

    /// Starts a thread as `start(name:_:)` does and detaches it: it cleans up after itself when
    /// `body` returns, and nobody joins it.
    public static func detached(name: String, _ body: sending @escaping () -> Void) throws(PosixError) {
        try start(name: name, body).detach()
    }

    /// Waits for the thread to end (`pthread_join`). Not from the thread itself.
    public func join() {
        pthread_join(handle, nil)
    }

    /// Lets the thread clean up after itself when it ends (`pthread_detach`).
    public func detach() {
        pthread_detach(handle)
    }

    /// Whether the calling thread is this one (`pthread_equal` with `pthread_self`).
    public var isCurrent: Bool {
        pthread_equal(handle, pthread_self()) != 0
    }
}

/// What `pthread_create` hands the new thread: its name and body, retained once for it and
/// released there (or back here when it could not start). Not Sendable on purpose: the body
/// belongs to that one thread.
private final class ThreadStart {
    let name: [CChar]
    let body: (PosixError?) -> Void

    init(name: String, body: @escaping (PosixError?) -> Void) {
        // The kernel keeps 15 bytes and a NUL; longer names make pthread_setname_np fail (ERANGE).
        self.name = name.utf8.prefix(15).map { CChar(bitPattern: $0) } + [0]
        self.body = body
    }

    func run() {
        pthread_setname_np(pthread_self(), name)
        body(nil)
    }
}
