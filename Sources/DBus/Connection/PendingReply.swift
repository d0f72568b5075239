import CDBus

/// One outstanding method call: the libdbus pending call and the continuation waiting for it.
///
/// Completed exactly once — by the reply, by libdbus's timeout or disconnect error, or by
/// cancellation — always on the loop thread.
final class PendingReply: @unchecked Sendable {  // invariant: touched only on the connection's loop thread
    typealias Completion = @Sendable (Result<Message, DBusError>) -> Void

    private var completion: Completion?
    private var call: OpaquePointer?
    /// Called once, when the call completes in any way.
    var onFinish: () -> Void = {}

    init(_ completion: @escaping Completion) {
        self.completion = completion
    }

    var isFinished: Bool { completion == nil }

    func attach(_ call: OpaquePointer) {
        self.call = call
        let context = Unmanaged.passRetained(self).toOpaque()
        let installed = dbus_pending_call_set_notify(call, { call, data in
            guard let call, let data else { return }
            let pending = Unmanaged<PendingReply>.fromOpaque(data).takeUnretainedValue()
            guard let reply = dbus_pending_call_steal_reply(call) else {
                pending.finish(.failure(DBusError(DBusError.Name.noReply, "no reply")))
                return
            }
            let message = Message(libdbusMessage: reply)
            dbus_message_unref(reply)
            if let error = message.error {
                pending.finish(.failure(error))
            } else {
                pending.finish(.success(message))
            }
        }, context, { data in
            guard let data else { return }
            Unmanaged<PendingReply>.fromOpaque(data).release()
        })
        if installed == 0 {
            Unmanaged<PendingReply>.fromOpaque(context).release()
            finish(.failure(DBusError(DBusError.Name.noMemory, "cannot wait for the reply")))
        }
    }

    /// Abandons the call (task cancelled): libdbus drops the reply when it comes.
    func cancel() {
        if let call { dbus_pending_call_cancel(call) }
        finish(.failure(PendingReply.cancelled))
    }

    static let cancelled = DBusError("org.mprisd.DBus.Error.Cancelled", "the call was cancelled")

    func finish(_ result: Result<Message, DBusError>) {
        guard let completion else { return }
        self.completion = nil
        if let call {
            self.call = nil
            dbus_pending_call_unref(call)
        }
        onFinish()
        onFinish = {}
        completion(result)
    }
}
