/// An error in D-Bus terms: a well-known error name and a human-readable message.
///
/// Everything the binding throws is a `DBusError`: error replies from peers (their name and first
/// string argument), local failures (the connection is gone, a value cannot be marshalled), and
/// the errors an exported object's handlers throw back to their callers.
public struct DBusError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The D-Bus error name, such as `org.freedesktop.DBus.Error.UnknownMethod`.
    public var name: String
    /// The message that travels with the error.
    public var message: String

    public init(_ name: String, _ message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { "\(name): \(message)" }
}

extension DBusError {
    /// The standard error names of `org.freedesktop.DBus.Error`.
    public enum Name {
        public static let failed = "org.freedesktop.DBus.Error.Failed"
        public static let noMemory = "org.freedesktop.DBus.Error.NoMemory"
        public static let serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
        public static let nameHasNoOwner = "org.freedesktop.DBus.Error.NameHasNoOwner"
        public static let noReply = "org.freedesktop.DBus.Error.NoReply"
        public static let ioError = "org.freedesktop.DBus.Error.IOError"
        public static let badAddress = "org.freedesktop.DBus.Error.BadAddress"
        public static let notSupported = "org.freedesktop.DBus.Error.NotSupported"
        public static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
        public static let noServer = "org.freedesktop.DBus.Error.NoServer"
        public static let timeout = "org.freedesktop.DBus.Error.Timeout"
        public static let disconnected = "org.freedesktop.DBus.Error.Disconnected"
        public static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
        public static let invalidSignature = "org.freedesktop.DBus.Error.InvalidSignature"
        public static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
        public static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
        public static let unknownInterface = "org.freedesktop.DBus.Error.UnknownInterface"
        public static let unknownProperty = "org.freedesktop.DBus.Error.UnknownProperty"
        public static let propertyReadOnly = "org.freedesktop.DBus.Error.PropertyReadOnly"
        public static let matchRuleInvalid = "org.freedesktop.DBus.Error.MatchRuleInvalid"
    }

    public static func failed(_ message: String) -> DBusError { DBusError(Name.failed, message) }
    public static func invalidArgs(_ message: String) -> DBusError { DBusError(Name.invalidArgs, message) }
    public static func notSupported(_ message: String) -> DBusError { DBusError(Name.notSupported, message) }
    public static func accessDenied(_ message: String) -> DBusError { DBusError(Name.accessDenied, message) }
    static let disconnected = DBusError(Name.disconnected, "the connection to the bus is closed")
}
