/// What `SignalRouter` indexes a subscription by: the parts of its rule a signal can be looked up
/// with in constant time (nil: the rule accepts any value there).
///
/// `sender` is the rule's sender as written: a unique name, the bus itself, or a well-known name
/// (looked up through the names its current owner holds).
struct SignalRouteKey: Hashable {
    let sender: String?
    let member: String?
    let firstArgument: String?

    init(_ rule: MatchRule) {
        sender = rule.sender
        member = rule.member
        firstArgument = rule.arguments[0]
    }

    private init(sender: String?, member: String?, firstArgument: String?) {
        self.sender = sender
        self.member = member
        self.firstArgument = firstArgument
    }

    /// Every key a subscription that matches `signal` can be filed under: at most
    /// (2 + `wellKnownNames.count`) × 2 × 2 keys. `wellKnownNames`: the followed well-known names
    /// the signal's sender owns.
    static func candidates(for signal: Message, wellKnownNames: Set<String>) -> Set<SignalRouteKey> {
        var senders: [String?] = [nil]
        if let sender = signal.sender { senders.append(sender) }
        senders.append(contentsOf: wellKnownNames.map { Optional($0) })
        var members: [String?] = [nil]
        if let member = signal.member { members.append(member) }
        var arguments: [String?] = [nil]
        if case .string(let first)? = signal.body.first { arguments.append(first) }
        var keys = Set<SignalRouteKey>()
        for sender in senders {
            for member in members {
                for argument in arguments {
                    keys.insert(SignalRouteKey(sender: sender, member: member, firstArgument: argument))
                }
            }
        }
        return keys
    }
}
