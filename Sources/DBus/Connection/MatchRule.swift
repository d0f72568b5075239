/// A signal match rule: what the bus should route to this connection (`AddMatch`), and what a
/// subscription then accepts locally, so that two subscriptions on one connection never see each
/// other's signals.
public struct MatchRule: Sendable, Hashable {
    public var sender: String?
    public var interface: String?
    public var member: String?
    public var path: ObjectPath?
    /// Matches `pathNamespace` itself and every path below it.
    public var pathNamespace: ObjectPath?
    public var destination: String?
    /// `argN='value'`: string argument N must equal the value.
    public var arguments: [Int: String]

    public init(sender: String? = nil, interface: String? = nil, member: String? = nil,
                path: ObjectPath? = nil, pathNamespace: ObjectPath? = nil, destination: String? = nil,
                arguments: [Int: String] = [:]) {
        self.sender = sender
        self.interface = interface
        self.member = member
        self.path = path
        self.pathNamespace = pathNamespace
        self.destination = destination
        self.arguments = arguments
    }

    /// The rule in the bus's text syntax (`type='signal',interface='…'`).
    public var text: String {
        var parts = ["type='signal'"]
        func add(_ key: String, _ value: String?) {
            if let value { parts.append("\(key)=\(Self.quote(value))") }
        }
        add("sender", sender)
        add("interface", interface)
        add("member", member)
        add("path", path?.rawValue)
        add("path_namespace", pathNamespace?.rawValue)
        add("destination", destination)
        for (index, value) in arguments.sorted(by: { $0.key < $1.key }) { add("arg\(index)", value) }
        return parts.joined(separator: ",")
    }

    /// Quotes a value: inside quotes nothing is special, so an apostrophe closes the quote, is
    /// written escaped, and the quote reopens (`'it'\''s'`).
    static func quote(_ value: String) -> String {
        "'" + value.replacing("'", with: "'\\''") + "'"
    }

    /// Whether `message` satisfies the rule. `senderOwner` is the current unique name of a
    /// well-known `sender` (signals carry the unique name of their sender, not the well-known one).
    func matches(_ message: Message, senderOwner: String?) -> Bool {
        guard message.kind == .signal else { return false }
        if let sender {
            let expected = sender.hasPrefix(":") || sender == BusDaemon.name ? sender : senderOwner
            guard let expected, message.sender == expected else { return false }
        }
        if let interface, message.interface != interface { return false }
        if let member, message.member != member { return false }
        if let path, message.path != path { return false }
        if let pathNamespace, let messagePath = message.path {
            guard messagePath == pathNamespace || messagePath.isDescendant(of: pathNamespace) else { return false }
        }
        if let destination, message.destination != destination { return false }
        for (index, value) in arguments {
            guard index < message.body.count, case .string(let argument) = message.body[index],
                  argument == value else { return false }
        }
        return true
    }

    /// Whether `sender` is a well-known name whose owner has to be tracked to match locally.
    var needsOwnerTracking: Bool {
        guard let sender else { return false }
        return !sender.hasPrefix(":") && sender != BusDaemon.name
    }
}
