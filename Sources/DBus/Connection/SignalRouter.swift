/// Delivers incoming signals to the subscriptions whose rules they match.
///
/// Loop-confined. Keeps the current owner of every well-known sender name a rule mentions
/// (from `NameOwnerChanged`, which the connection subscribes to for that purpose), because
/// signals arrive stamped with the sender's unique name.
///
/// Routing costs the same whatever the number of subscriptions: they are indexed by what a signal
/// carries (`SignalRouteKey`: sender, member, first argument), a signal looks up only the few keys
/// it could match, and `MatchRule.matches` makes the final decision on those candidates. A peer
/// that makes a connection follow thousands of names therefore cannot make each signal cost
/// thousands of comparisons.
final class SignalRouter {
    struct Subscription {
        let rule: MatchRule
        let handler: @Sendable (Message) -> Void
        let onFinish: (@Sendable () -> Void)?
    }

    private var subscriptions: [UInt64: Subscription] = [:]
    private var index: [SignalRouteKey: Set<UInt64>] = [:]
    private var owners = NameOwners()

    func add(_ id: UInt64, _ subscription: Subscription) {
        subscriptions[id] = subscription
        index[SignalRouteKey(subscription.rule), default: []].insert(id)
    }

    func remove(_ id: UInt64) -> Subscription? {
        guard let removed = subscriptions.removeValue(forKey: id) else { return nil }
        let key = SignalRouteKey(removed.rule)
        index[key]?.remove(id)
        if index[key]?.isEmpty == true { index[key] = nil }
        return removed
    }

    func setOwner(_ owner: String?, of name: String) {
        owners.set(owner, of: name)
    }

    /// Calls the handler of every subscription `signal` matches, in order of subscription.
    func route(_ signal: Message) {
        if signal.sender == BusDaemon.name, signal.member == "NameOwnerChanged", signal.body.count == 3,
           case .string(let name) = signal.body[0], case .string(let newOwner) = signal.body[2],
           owners.isFollowing(name) {
            owners.set(newOwner.isEmpty ? nil : newOwner, of: name)
        }
        var matched: [UInt64] = []
        for key in SignalRouteKey.candidates(for: signal, wellKnownNames: owners.names(ownedBy: signal.sender)) {
            guard let ids = index[key] else { continue }
            for id in ids {
                guard let subscription = subscriptions[id] else { continue }
                let owner = subscription.rule.sender.flatMap { owners.owner(of: $0) }
                if subscription.rule.matches(signal, senderOwner: owner) { matched.append(id) }
            }
        }
        // Handlers may cancel subscriptions (their own or others'): look each one up again.
        for id in matched.sorted() {
            subscriptions[id]?.handler(signal)
        }
    }

    /// The connection is gone: end every subscription's stream.
    func finishAll() {
        let ended = subscriptions.values
        subscriptions.removeAll()
        index.removeAll()
        for subscription in ended { subscription.onFinish?() }
    }
}
