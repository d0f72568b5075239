extension Connection {
    /// Subscribes to the signals `rule` matches: adds the match on the bus (waiting for the bus to
    /// accept it, so no signal sent after this returns is missed) and calls `handler` on the I/O
    /// thread for each one. `handler` must not block. The async form of
    /// `subscribe(_:_:timeout:completion:)`: cancelling the task does not abandon it (it completes,
    /// and the caller cancels the subscription it gets).
    public func subscribe(_ rule: MatchRule,
                          _ handler: @escaping @Sendable (Message) -> Void) async throws(DBusError) -> SignalSubscription {
        try await awaiting { subscribe(rule, handler, onFinish: nil, timeout: nil, completion: $0) }
    }

    /// The signals `rule` matches, as a stream that ends when the subscription is cancelled or
    /// the connection closes.
    public func signals(_ rule: MatchRule) async throws(DBusError) -> (stream: AsyncStream<Message>, subscription: SignalSubscription) {
        let (stream, continuation) = AsyncStream<Message>.makeStream(bufferingPolicy: .unbounded)
        let subscription = try await awaiting {
            subscribe(rule, { continuation.yield($0) }, onFinish: { continuation.finish() }, timeout: nil,
                      completion: $0)
        }
        return (stream, subscription)
    }
}

/// A live signal subscription; `cancel()` removes the match from the bus and stops delivery.
public final class SignalSubscription: Sendable {
    private let connection: Connection
    private let id: UInt64
    public let rule: MatchRule
    private let ownerWatch: SignalSubscription?

    init(connection: Connection, id: UInt64, rule: MatchRule, ownerWatch: SignalSubscription?) {
        self.connection = connection
        self.id = id
        self.rule = rule
        self.ownerWatch = ownerWatch
    }

    /// Stops delivery at once and removes the rule from the bus in the background.
    public func cancel() {
        let id = self.id
        connection.onLoop { core in
            guard let removed = core.signals.remove(id) else { return }
            removed.onFinish?()
            try? core.send(Connection.removeMatchMessage(removed.rule))
        }
        ownerWatch?.cancel()
    }
}

extension Connection {
    /// After `AddMatch` failed with `error`: removes `rule` from the bus (without waiting) when the
    /// bus may have added it all the same — the answer did not come in time, or the caller stopped
    /// waiting. A rule left behind would count against the connection's limit for good; removing
    /// one the bus never added only earns an error reply nobody waits for. An error the bus
    /// answered means the rule was not added: nothing is sent then, since a `RemoveMatch` would
    /// take away an identical rule of another subscription.
    func removeMatch(_ rule: MatchRule, ifAddedDespite error: DBusError) {
        guard error.name == DBusError.Name.noReply || error.name == PendingReply.cancelled.name else { return }
        try? send(Self.removeMatchMessage(rule))
    }

    /// `RemoveMatch` as a one-way call: nothing waits for its answer.
    static func removeMatchMessage(_ rule: MatchRule) -> Message {
        var message = Message.methodCall(destination: BusDaemon.name, path: BusDaemon.path,
                                         interface: BusDaemon.interface, member: "RemoveMatch",
                                         body: [.string(rule.text)])
        message.noReplyExpected = true
        return message
    }
}
