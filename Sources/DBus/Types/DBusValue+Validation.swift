import CDBus

extension DBusValue {
    /// The deepest container nesting (arrays, dicts, structs and variants together) a message may
    /// carry, per the D-Bus specification.
    public static let maximumNesting = 64

    /// Checks that the value can be marshalled: container elements have the declared types, strings
    /// hold no NUL, structs are not empty, nesting stays within the specification's limits.
    ///
    /// The binding makes these checks while it marshals (`Marshal`), so a bad outgoing value is a
    /// thrown `InvalidArgs`, never a libdbus warning or a trap; this asks the same code, on a
    /// scratch message, for a caller that wants to know before sending.
    public func validate() throws(DBusError) {
        guard let scratch = dbus_message_new(CDBUS_MESSAGE_TYPE_METHOD_RETURN) else {
            throw DBusError(DBusError.Name.noMemory, "dbus_message_new failed")
        }
        defer { dbus_message_unref(scratch) }
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(scratch, &iter)
        try Marshal.append(self, to: &iter)
    }
}
