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
        let milliseconds = timeout.map { Int32(clamping: $0.components.seconds * 1000
            + $0.components.attoseconds / 1_000_000_000_000_000) } ?? CDBUS_TIMEOUT_USE_DEFAULT
        let box = PendingBox()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Message, DBusError>, Never>) in
                let pending = PendingReply { continuation.resume(returning: $0) }
                guard box.register(pending) else {
                    dbus_message_unref(built.value)
                    continuation.resume(returning: .failure(PendingReply.cancelled))
                    return
                }
                // Ownership of `built` moves to the loop thread.
                let accepted = onLoop { core in
                    core.sendCall(consuming: built.value, timeoutMilliseconds: milliseconds, pending: pending)
                }
                if !accepted {
                    dbus_message_unref(built.value)
                    continuation.resume(returning: .failure(.disconnected))
                }
            }
        } onCancel: {
            if let pending = box.cancel() {
                onLoop { _ in pending.cancel() }
            }
        }
        return try result.get()
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
