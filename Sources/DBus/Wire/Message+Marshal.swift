import CDBus

/// Conversion between `Message` and libdbus's `DBusMessage`.
///
/// Runs on whatever thread builds or reads the message; a `DBusMessage` is owned by exactly one
/// thread at a time, and only the connection's I/O thread hands it to the connection.
extension Message {
    /// Builds a new libdbus message (+1 reference); throws `InvalidArgs` for unmarshallable values.
    func makeLibdbusMessage() throws(DBusError) -> OpaquePointer {
        try Self.checkBody(body)
        guard let raw = dbus_message_new(kind.libdbusType) else {
            throw DBusError(DBusError.Name.noMemory, "dbus_message_new failed")
        }
        do {
            try setHeader(on: raw)
            try Self.appendBody(body, to: raw)
        } catch {
            dbus_message_unref(raw)
            throw error
        }
        return raw
    }

    /// Checks the body's signature against the 255-byte limit; the values themselves are checked
    /// while `Marshal` appends them.
    static func checkBody(_ body: [DBusValue]) throws(DBusError) {
        var length = 0
        for value in body { length += value.signatureLength }
        guard length <= SignatureParser.maxLength else {
            throw DBusError.invalidArgs("message signature is longer than 255 bytes")
        }
    }

    /// Appends checked values to a new message's body.
    static func appendBody(_ body: [DBusValue], to raw: OpaquePointer) throws(DBusError) {
        guard !body.isEmpty else { return }
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(raw, &iter)
        for value in body { try Marshal.append(value, to: &iter) }
    }

    private func setHeader(on raw: OpaquePointer) throws(DBusError) {
        func require(_ ok: dbus_bool_t, _ what: String) throws(DBusError) {
            guard ok != 0 else { throw DBusError.invalidArgs("invalid \(what)") }
        }
        if let path { try require(dbus_message_set_path(raw, path.rawValue), "object path") }
        if let interface {
            guard NameSyntax.isInterfaceName(interface) else {
                throw DBusError.invalidArgs("'\(interface)' is not an interface name")
            }
            try require(dbus_message_set_interface(raw, interface), "interface")
        }
        if let member {
            guard NameSyntax.isMemberName(member) else {
                throw DBusError.invalidArgs("'\(member)' is not a member name")
            }
            try require(dbus_message_set_member(raw, member), "member")
        }
        if let destination {
            guard NameSyntax.isBusName(destination) else {
                throw DBusError.invalidArgs("'\(destination)' is not a bus name")
            }
            try require(dbus_message_set_destination(raw, destination), "destination")
        }
        if let errorName {
            guard NameSyntax.isInterfaceName(errorName) else {
                throw DBusError.invalidArgs("'\(errorName)' is not an error name")
            }
            try require(dbus_message_set_error_name(raw, errorName), "error name")
        }
        if replySerial != 0 { try require(dbus_message_set_reply_serial(raw, replySerial), "reply serial") }
        switch kind {
        case .methodCall:
            guard path != nil, member != nil else {
                throw DBusError.invalidArgs("a method call needs a path and a member")
            }
            if noReplyExpected { dbus_message_set_no_reply(raw, 1) }
        case .signal:
            guard path != nil, interface != nil, member != nil else {
                throw DBusError.invalidArgs("a signal needs a path, an interface and a member")
            }
        case .error:
            guard errorName != nil else { throw DBusError.invalidArgs("an error needs an error name") }
        case .methodReturn:
            break
        }
    }

    /// Reads a libdbus message (borrowed; the caller keeps its reference).
    init(libdbusMessage raw: OpaquePointer) {
        var strings = HeaderStrings()
        self.init(libdbusMessage: raw, reusing: &strings)
    }

    /// Reads a libdbus message, reusing the header strings of the one read before when they repeat.
    init(libdbusMessage raw: OpaquePointer, reusing strings: inout HeaderStrings) {
        let type = dbus_message_get_type(raw)
        self.init(kind: Kind(libdbusType: type))
        serial = dbus_message_get_serial(raw)
        replySerial = dbus_message_get_reply_serial(raw)
        sender = strings.sender(dbus_message_get_sender(raw))
        destination = strings.destination(dbus_message_get_destination(raw))
        path = strings.path(dbus_message_get_path(raw)).map { ObjectPath(validated: $0) }
        interface = strings.interface(dbus_message_get_interface(raw))
        member = strings.member(dbus_message_get_member(raw))
        errorName = dbus_message_get_error_name(raw).map { String(cString: $0) }
        noReplyExpected = dbus_message_get_no_reply(raw) != 0
        var iter = DBusMessageIter()
        if dbus_message_iter_init(raw, &iter) != 0 {
            body = Unmarshal.readAll(&iter)
        }
    }
}

extension Message.Kind {
    var libdbusType: Int32 {
        switch self {
        case .methodCall: CDBUS_MESSAGE_TYPE_METHOD_CALL
        case .methodReturn: CDBUS_MESSAGE_TYPE_METHOD_RETURN
        case .error: CDBUS_MESSAGE_TYPE_ERROR
        case .signal: CDBUS_MESSAGE_TYPE_SIGNAL
        }
    }

    init(libdbusType: Int32) {
        switch libdbusType {
        case CDBUS_MESSAGE_TYPE_METHOD_CALL: self = .methodCall
        case CDBUS_MESSAGE_TYPE_METHOD_RETURN: self = .methodReturn
        case CDBUS_MESSAGE_TYPE_ERROR: self = .error
        default: self = .signal
        }
    }
}
