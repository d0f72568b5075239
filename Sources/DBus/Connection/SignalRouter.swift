/// Delivers incoming signals to the subscriptions whose rules they match.
///
/// Loop-confined. Keeps the current owner of every well-known sender name a rule mentions
/// (from `NameOwnerChanged`, which the connection subscribes to for that purpose), because
/// signals arrive stamped with the sender's unique name.
final class SignalRouter {
    struct Subscription {
        let rule: MatchRule
        let handler: @Sendable (Message) -> Void
        let onFinish: (@Sendable () -> Void)?
    }

    private var subscriptions: [UInt64: Subscription] = [:]
    private var owners: [String: String] = [:]

    func add(_ id: UInt64, _ subscription: Subscription) {
        subscriptions[id] = subscription
    }

    func remove(_ id: UInt64) -> Subscription? {
        subscriptions.removeValue(forKey: id)
    }

    func setOwner(_ owner: String?, of name: String) {
        owners[name] = owner
    }

    func route(_ signal: Message) {
        if signal.sender == BusDaemon.name, signal.member == "NameOwnerChanged", signal.body.count == 3,
           case .string(let name) = signal.body[0], case .string(let newOwner) = signal.body[2],
           owners.keys.contains(name) {
            owners[name] = newOwner.isEmpty ? nil : newOwner
        }
        for subscription in subscriptions.values {
            let owner = subscription.rule.sender.flatMap { owners[$0] }
            if subscription.rule.matches(signal, senderOwner: owner) {
                subscription.handler(signal)
            }
        }
    }

    /// The connection is gone: end every subscription's stream.
    func finishAll() {
        let ended = subscriptions.values
        subscriptions.removeAll()
        for subscription in ended { subscription.onFinish?() }
    }
}
