/// A D-Bus interface described once, declaratively (like sd-bus's vtable).
///
/// From this one description the binding derives the introspection XML, the argument checks
/// (`InvalidArgs` with the expected and received signatures), the `org.freedesktop.DBus.Properties`
/// implementation with its errors, and `PropertiesChanged` emission.
public struct Interface: Sendable {
    public let name: String
    public var methods: [Method]
    public var properties: [Property]
    public var signals: [SignalDescription]

    public init(_ name: String, methods: [Method] = [], properties: [Property] = [],
                signals: [SignalDescription] = []) {
        self.name = name
        self.methods = methods
        self.properties = properties
        self.signals = signals
    }

    func method(named member: String) -> Method? { methods.first { $0.name == member } }
    func property(named member: String) -> Property? { properties.first { $0.name == member } }
}

/// A named, typed argument of a method or signal.
public struct Argument: Sendable {
    public var name: String?
    public var type: DBusType

    public init(_ name: String?, _ type: DBusType) {
        self.name = name
        self.type = type
    }
}

/// A method: its signatures and its handler.
public struct Method: Sendable {
    /// What runs for a call whose arguments matched the input signature.
    public enum Handler: Sendable {
        /// Runs on the connection's I/O thread and replies at once: the fastest path, for handlers
        /// that do not block (read state under a lock, queue work, answer).
        case immediate(@Sendable (Message) throws -> [DBusValue])
        /// Runs in a task; the reply is sent when it returns.
        case task(@Sendable (Message) async throws -> [DBusValue])
        /// Runs on the I/O thread and answers later, from any thread, by calling its second
        /// argument once: for a reply that waits on other calls, without Swift concurrency (a
        /// daemon that forwards a call to a player and answers with the player's outcome).
        case deferred(@Sendable (Message, @escaping @Sendable (Result<[DBusValue], any Error>) -> Void) -> Void)
    }

    public let name: String
    public let inputs: [Argument]
    public let outputs: [Argument]
    public let handler: Handler

    public init(_ name: String, inputs: [Argument] = [], outputs: [Argument] = [], handler: Handler) {
        self.name = name
        self.inputs = inputs
        self.outputs = outputs
        self.handler = handler
    }

    /// A method answered on the I/O thread.
    public static func immediate(_ name: String, inputs: [Argument] = [], outputs: [Argument] = [],
                                 _ body: @escaping @Sendable (Message) throws -> [DBusValue]) -> Method {
        Method(name, inputs: inputs, outputs: outputs, handler: .immediate(body))
    }

    /// A method answered by an async task.
    public static func task(_ name: String, inputs: [Argument] = [], outputs: [Argument] = [],
                            _ body: @escaping @Sendable (Message) async throws -> [DBusValue]) -> Method {
        Method(name, inputs: inputs, outputs: outputs, handler: .task(body))
    }

    /// A method answered later through the reply closure (`Handler.deferred`).
    public static func deferred(_ name: String, inputs: [Argument] = [], outputs: [Argument] = [],
                                _ body: @escaping @Sendable (Message, @escaping @Sendable (Result<[DBusValue], any Error>) -> Void) -> Void) -> Method {
        Method(name, inputs: inputs, outputs: outputs, handler: .deferred(body))
    }

    var inputSignature: Signature { Signature(inputs.map(\.type)) }
    var outputSignature: Signature { Signature(outputs.map(\.type)) }
}

/// A property: type, access, change signalling, getter and optional setter.
public struct Property: Sendable {
    /// How changes are announced (`org.freedesktop.DBus.Property.EmitsChangedSignal`).
    public enum ChangeSignal: String, Sendable {
        /// `PropertiesChanged` carries the new value.
        case emits = "true"
        /// `PropertiesChanged` lists the name as invalidated, without the value.
        case invalidates = "invalidates"
        /// The value never changes for the object's lifetime.
        case constant = "const"
        /// Changes are not announced (clients must poll, e.g. MPRIS `Position`).
        case none = "false"
    }

    public let name: String
    public let type: DBusType
    public let changeSignal: ChangeSignal
    public let getter: @Sendable () throws -> DBusValue
    /// Takes the new value and the `Set` call that brought it (its sender, for a setter that
    /// accepts writes from one peer only).
    public let setter: (@Sendable (DBusValue, Message) throws -> Void)?

    /// Getters and setters run on the connection's I/O thread and must not block.
    public init(_ name: String, _ type: DBusType, changeSignal: ChangeSignal = .emits,
                get: @escaping @Sendable () throws -> DBusValue,
                set: (@Sendable (DBusValue) throws -> Void)? = nil) {
        var setFromCall: (@Sendable (DBusValue, Message) throws -> Void)?
        if let set { setFromCall = { value, _ in try set(value) } }
        self.init(name, type, changeSignal: changeSignal, get: get, setFromCall: setFromCall)
    }

    /// A property whose setter also sees the `Set` call (who asked).
    public init(_ name: String, _ type: DBusType, changeSignal: ChangeSignal = .emits,
                get: @escaping @Sendable () throws -> DBusValue,
                setFromCall: (@Sendable (DBusValue, Message) throws -> Void)?) {
        self.name = name
        self.type = type
        self.changeSignal = changeSignal
        self.getter = get
        self.setter = setFromCall
    }

    var isWritable: Bool { setter != nil }
}

/// A signal the interface emits; declared for introspection and checked on emission.
public struct SignalDescription: Sendable {
    public let name: String
    public let arguments: [Argument]

    public init(_ name: String, _ arguments: [Argument] = []) {
        self.name = name
        self.arguments = arguments
    }

    var signature: Signature { Signature(arguments.map(\.type)) }
}
