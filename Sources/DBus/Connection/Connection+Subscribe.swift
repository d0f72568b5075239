/// Subscribing to signals and following a name's owner: the one implementation, completion-based,
/// so that code which must not use Swift concurrency (a daemon that has to wake zero times while
/// idle: starting Swift's thread pool brings libdispatch's once-a-second monitor tick with it) and
/// async code (`Connection+Signals.swift`, thin wrappers) behave the same.
///
/// The match is in place on the bus before the subscription is reported, so no signal sent after
/// `completion` ran is missed. Every step after the first call — the bus's answers, the routing
/// tables, owner reports — happens on the connection's I/O thread, in the order the bus sent its
/// messages. Completions run on the I/O thread, or at once on the caller's thread when nothing
/// could be sent (a closed connection).
extension Connection {
    /// Subscribes to the signals `rule` matches: adds the match on the bus and, once the bus has
    /// accepted it, calls `completion` with the subscription; `handler` then runs on the I/O thread
    /// for each matching signal. `handler` must not block.
    ///
    /// A well-known `sender` is followed (its current owner is asked for, then every change) so that
    /// signals, which carry the sender's unique name, match locally.
    ///
    /// `timeout` bounds the wait for the bus's answer to `AddMatch` (nil: libdbus's default). A
    /// failed subscription leaves no rule behind on the bus, even when the bus added it after all.
    public func subscribe(_ rule: MatchRule, _ handler: @escaping @Sendable (Message) -> Void,
                          timeout: Duration? = nil,
                          completion: @escaping @Sendable (Result<SignalSubscription, DBusError>) -> Void) {
        subscribe(rule, handler, onFinish: nil, timeout: timeout, completion: completion)
    }

    /// `subscribe`, with `onFinish` called on the I/O thread when the subscription ends (cancelled,
    /// or the connection closed): what ends a stream of signals.
    func subscribe(_ rule: MatchRule, _ handler: @escaping @Sendable (Message) -> Void,
                   onFinish: (@Sendable () -> Void)?, timeout: Duration?,
                   completion: @escaping @Sendable (Result<SignalSubscription, DBusError>) -> Void) {
        guard rule.needsOwnerTracking, let sender = rule.sender else {
            return addMatch(rule, handler, onFinish: onFinish, ownerWatch: nil, timeout: timeout,
                            completion: completion)
        }
        // Runs on the I/O thread only (routed signals and the bus's answer), which owns the router.
        watchNameOwner(sender, { [core] owner in
            core.signals.setOwner(owner, of: sender)
        }, completion: { [self] result in
            switch result {
            case .success(let ownerWatch):
                addMatch(rule, handler, onFinish: onFinish, ownerWatch: ownerWatch, timeout: timeout,
                         completion: completion)
            case .failure(let error):
                completion(.failure(error))
            }
        })
    }

    /// Follows the owner of `name`: `handler` gets the current owner first (nil if none), then every
    /// change, on the I/O thread; `completion` runs once the watch is in place, after that first
    /// `handler` call. Cancel the returned subscription to stop.
    ///
    /// The current owner is asked for after the match is in place, so no change between the two is
    /// missed; a change announced before the answer makes the answer moot (it is not reported), so
    /// `handler` never goes back to an owner older than one it was already told.
    public func watchNameOwner(_ name: String, _ handler: @escaping @Sendable (String?) -> Void,
                               completion: @escaping @Sendable (Result<SignalSubscription, DBusError>) -> Void) {
        let rule = MatchRule(sender: BusDaemon.name, interface: BusDaemon.interface,
                             member: "NameOwnerChanged", path: BusDaemon.path, arguments: [0: name])
        let order = OwnerReportOrder()
        addMatch(rule, { signal in
            guard signal.body.count == 3, case .string(let owner) = signal.body[2] else { return }
            order.changeAnnounced()
            handler(owner.isEmpty ? nil : owner)
        }, onFinish: nil, ownerWatch: nil, timeout: nil, completion: { [self] result in
            guard case .success(let subscription) = result else { return completion(result) }
            nameOwner(name) { answer in
                switch answer {
                case .success(let owner):
                    if order.answerIsCurrent() { handler(owner) }
                    completion(.success(subscription))
                case .failure(let error):
                    subscription.cancel()
                    completion(.failure(error))
                }
            }
        })
    }

    /// `AddMatch`, then registers the subscription locally (both on the I/O thread, in that order,
    /// before `completion` runs). An `AddMatch` that timed out may still have been added: the
    /// rule is then removed again.
    private func addMatch(_ rule: MatchRule, _ handler: @escaping @Sendable (Message) -> Void,
                          onFinish: (@Sendable () -> Void)?, ownerWatch: SignalSubscription?, timeout: Duration?,
                          completion: @escaping @Sendable (Result<SignalSubscription, DBusError>) -> Void) {
        let id = nextSubscription.add(1, ordering: .relaxed).newValue
        callBus("AddMatch", [.string(rule.text)], timeout: timeout) { [self] result in
            switch result {
            case .success:
                let entry = SignalRouter.Subscription(rule: rule, handler: handler, onFinish: onFinish)
                let subscription = SignalSubscription(connection: self, id: id, rule: rule, ownerWatch: ownerWatch)
                // Normally already on the I/O thread (a reply's completion), where this runs at
                // once; otherwise queued ahead of anything the caller does next.
                if core.loop.isOnLoopThread {
                    core.signals.add(id, entry)
                    completion(.success(subscription))
                } else if onLoop({ core in
                    core.signals.add(id, entry)
                    completion(.success(subscription))
                }) == false {
                    ownerWatch?.cancel()
                    completion(.failure(.disconnected))
                }
            case .failure(let error):
                removeMatch(rule, ifAddedDespite: error)
                ownerWatch?.cancel()
                completion(.failure(error))
            }
        }
    }
}
