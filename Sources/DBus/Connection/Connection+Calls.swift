import CDBus
import Synchronization

extension Connection {
    /// Sends a message without waiting for anything: a signal, a one-way call, a reply.
    public func send(_ message: Message) throws(DBusError) {
        let built = UnsafeTransfer(try message.makeLibdbusMessage())
        // Ownership of `built` moves to the loop thread.
        guard onLoop({ $0.send(consuming: built.value) }) else {
            dbus_message_unref(built.value)
            throw DBusError.disconnected
        }
    }

    /// Sends a method call and waits for its reply.
    ///
    /// - Parameter timeout: how long to wait; `nil` is libdbus's default (25 s).
    /// - Returns: the reply message.
    /// - Throws: the peer's error reply as a `DBusError` with its name and message; `NoReply` on
    ///   timeout; `Disconnected` when the connection is gone. Cancelling the task abandons the call.
    public func call(_ message: Message, timeout: Duration? = nil) async throws(DBusError) -> Message {
        guard message.kind == .methodCall else {
            throw DBusError.invalidArgs("call() needs a method call message")
        }
        var outgoing = message
        outgoing.noReplyExpected = false
        let built = UnsafeTransfer(try outgoing.makeLibdbusMessage())
        let milliseconds = Self.milliseconds(timeout)
        let box = PendingBox()
        let handOver = AwaitedResult<Message>()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let finish: PendingReply.Completion = { result in
                    handOver.store(result)
                    continuation.resume()
                }
                let pending = PendingReply(finish)
                guard box.register(pending) else {
                    dbus_message_unref(built.value)
                    finish(.failure(PendingReply.cancelled))
                    return
                }
                // Ownership of `built` moves to the loop thread.
                let accepted = onLoop { core in
                    core.sendCall(consuming: built.value, timeoutMilliseconds: milliseconds, pending: pending)
                }
                if !accepted {
                    dbus_message_unref(built.value)
                    finish(.failure(.disconnected))
                }
            }
        } onCancel: {
            if let pending = box.cancel() {
                onLoop { _ in pending.cancel() }
            }
        }
        return try handOver.take().get()
    }

    /// Sends a method call; `completion` runs on the connection's I/O thread with the reply, the
    /// peer's error, `NoReply` on timeout or `Disconnected`. For code that does not use async.
    ///
    /// When the call cannot even be sent (a value that cannot be marshalled, a closed connection)
    /// `completion` runs at once on the caller's thread: do not call this while holding a lock
    /// that `completion` takes.
    public func call(_ message: Message, timeout: Duration? = nil,
                     completion: @escaping @Sendable (Result<Message, DBusError>) -> Void) {
        guard message.kind == .methodCall else {
            return completion(.failure(.invalidArgs("call() needs a method call message")))
        }
        var outgoing = message
        outgoing.noReplyExpected = false
        let built: UnsafeTransfer<OpaquePointer>
        do {
            built = UnsafeTransfer(try outgoing.makeLibdbusMessage())
        } catch {
            return completion(.failure(error))
        }
        let milliseconds = Self.milliseconds(timeout)
        let pending = PendingReply(completion)
        // Ownership of `built` moves to the loop thread.
        if !onLoop({ $0.sendCall(consuming: built.value, timeoutMilliseconds: milliseconds, pending: pending) }) {
            dbus_message_unref(built.value)
            completion(.failure(.disconnected))
        }
    }

    /// Sends a method call and blocks the calling thread until the answer comes.
    ///
    /// For programs that run without Swift concurrency (a daemon that must not wake up while idle);
    /// never call it on the connection's own I/O thread, whose work it would wait for.
    public func callAndWait(_ message: Message, timeout: Duration? = nil) throws(DBusError) -> Message {
        try waiting { call(message, timeout: timeout, completion: $0) }
    }

    static func milliseconds(_ timeout: Duration?) -> Int32 {
        timeout.map { Int32(clamping: $0.components.seconds * 1000
            + $0.components.attoseconds / 1_000_000_000_000_000) } ?? CDBUS_TIMEOUT_USE_DEFAULT
    }

    /// Calls a method and returns the reply's arguments.
    public func call(destination: String, path: ObjectPath, interface: String?, member: String,
                     _ arguments: [DBusValue] = [], timeout: Duration? = nil) async throws(DBusError) -> [DBusValue] {
        try await call(.methodCall(destination: destination, path: path, interface: interface,
                                   member: member, body: arguments), timeout: timeout).body
    }
}

/// Lets the cancellation handler find the call that the continuation created, whichever of the
/// two runs first.
private final class PendingBox: Sendable {
    private let state = Mutex<(pending: PendingReply?, cancelled: Bool)>((nil, false))

    /// Records the call; false if the task was already cancelled (then nothing is sent).
    func register(_ pending: PendingReply) -> Bool {
        state.withLock { state in
            guard !state.cancelled else { return false }
            state.pending = pending
            return true
        }
    }

    /// Marks the task cancelled and returns the call to abandon, if one was registered.
    func cancel() -> PendingReply? {
        state.withLock { state in
            state.cancelled = true
            return state.pending
        }
    }
}
