/// A D-Bus message as plain Swift data: header fields and a typed body.
///
/// Incoming messages are decoded into this on the connection's I/O thread; outgoing ones are
/// built with the factory methods and marshalled by the connection. No libdbus pointer escapes.
public struct Message: Sendable {
    public enum Kind: Sendable, Equatable {
        case methodCall, methodReturn, error, signal
    }

    public var kind: Kind
    /// The serial the sender gave the message (0 for an outgoing message not yet sent).
    public var serial: UInt32 = 0
    /// For replies and errors: the serial of the call answered.
    public var replySerial: UInt32 = 0
    public var sender: String?
    public var destination: String?
    public var path: ObjectPath?
    public var interface: String?
    public var member: String?
    /// For errors: the error name.
    public var errorName: String?
    /// A method call that wants no reply (`NO_REPLY_EXPECTED`): a one-way call.
    public var noReplyExpected = false
    /// The arguments, each with its exact type.
    public var body: [DBusValue]

    public init(kind: Kind, body: [DBusValue] = []) {
        self.kind = kind
        self.body = body
    }

    /// The body's signature.
    public var signature: Signature { Signature(body.map(\.type)) }

    /// A method call.
    public static func methodCall(destination: String?, path: ObjectPath, interface: String?,
                                  member: String, body: [DBusValue] = []) -> Message {
        var message = Message(kind: .methodCall, body: body)
        message.destination = destination
        message.path = path
        message.interface = interface
        message.member = member
        return message
    }

    /// A signal.
    public static func signal(path: ObjectPath, interface: String, member: String,
                              body: [DBusValue] = [], destination: String? = nil) -> Message {
        var message = Message(kind: .signal, body: body)
        message.path = path
        message.interface = interface
        message.member = member
        message.destination = destination
        return message
    }

    /// The successful reply to this call.
    public func makeReply(_ body: [DBusValue] = []) -> Message {
        var reply = Message(kind: .methodReturn, body: body)
        reply.replySerial = serial
        reply.destination = sender
        return reply
    }

    /// The error reply to this call.
    public func makeErrorReply(_ error: DBusError) -> Message {
        var reply = Message(kind: .error, body: [.string(error.message)])
        reply.replySerial = serial
        reply.destination = sender
        reply.errorName = error.name
        return reply
    }

    /// Argument `index`, converted to `T`; throws `InvalidArgs` when missing or of another type.
    public func argument<T: DBusRepresentable>(_ index: Int, as type: T.Type = T.self) throws(DBusError) -> T {
        guard index < body.count else {
            throw DBusError.invalidArgs("argument \(index) is missing")
        }
        return try T(dbusValue: body[index])
    }

    /// For an error message: the error it carries (name and first string argument).
    public var error: DBusError? {
        guard kind == .error else { return nil }
        var text = ""
        if case .string(let first)? = body.first { text = first }
        return DBusError(errorName ?? DBusError.Name.failed, text)
    }
}
