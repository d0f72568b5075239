import CDBus

/// A reference to a received libdbus message, kept so that replies can be built from it
/// (`dbus_message_new_method_return`, `dbus_message_new_error`) without re-encoding its header.
final class ReceivedMessage: @unchecked Sendable {  // invariant: a received message is immutable; libdbus refcounts atomically
    let pointer: OpaquePointer

    init(retaining pointer: OpaquePointer) {
        dbus_message_ref(pointer)
        self.pointer = pointer
    }

    deinit {
        dbus_message_unref(pointer)
    }

    /// The successful reply (+1 reference).
    func makeReply(_ body: [DBusValue]) throws(DBusError) -> OpaquePointer {
        try Message.checkBody(body)
        return try makeReply { (iter) throws(DBusError) in
            for value in body { try Marshal.append(value, to: &iter) }
        }
    }

    /// The successful reply (+1 reference), its body written by `write` straight into the message
    /// (a `GetAll` reply, without first building its dictionary as a value).
    func makeReply(writing write: (inout DBusMessageIter) throws(DBusError) -> Void) throws(DBusError) -> OpaquePointer {
        guard let reply = dbus_message_new_method_return(pointer) else {
            throw DBusError(DBusError.Name.noMemory, "dbus_message_new_method_return failed")
        }
        do {
            var iter = DBusMessageIter()
            dbus_message_iter_init_append(reply, &iter)
            try write(&iter)
        } catch {
            dbus_message_unref(reply)
            throw error
        }
        return reply
    }

    /// The error reply (+1 reference); throws if the name or message cannot be sent as they are.
    func makeErrorReply(_ error: DBusError) throws(DBusError) -> OpaquePointer {
        try Self.makeErrorReply(error, to: pointer)
    }

    /// The error reply to `call` (+1 reference), for a call answered without a `ReceivedMessage`
    /// (the `Properties.Get` fast path, `ObjectTable+FastGet`).
    static func makeErrorReply(_ error: DBusError, to call: OpaquePointer) throws(DBusError) -> OpaquePointer {
        guard NameSyntax.isInterfaceName(error.name) else {
            throw DBusError.invalidArgs("'\(error.name)' is not an error name")
        }
        guard !error.message.utf8.contains(0) else {
            throw DBusError.invalidArgs("an error message must not contain NUL")
        }
        guard let reply = dbus_message_new_error(call, error.name, error.message) else {
            throw DBusError(DBusError.Name.noMemory, "dbus_message_new_error failed")
        }
        return reply
    }
}
