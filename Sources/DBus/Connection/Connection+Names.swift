extension Connection {
    /// Flags of `RequestName`.
    public struct NameFlags: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let allowReplacement = NameFlags(rawValue: 1)
        public static let replaceExisting = NameFlags(rawValue: 2)
        public static let doNotQueue = NameFlags(rawValue: 4)
    }

    /// The bus's answer to `RequestName`.
    public enum RequestNameReply: UInt32, Sendable {
        case primaryOwner = 1, inQueue, exists, alreadyOwner
    }

    /// The bus's answer to `ReleaseName`.
    public enum ReleaseNameReply: UInt32, Sendable {
        case released = 1, nonExistent, notOwner
    }

    /// Asks the bus for `name`. `.nameAcquired`/`.nameLost` events follow ownership changes.
    public func requestName(_ name: String, flags: NameFlags = []) async throws(DBusError) -> RequestNameReply {
        guard NameSyntax.isBusName(name), !name.hasPrefix(":") else {
            throw DBusError.invalidArgs("'\(name)' is not a well-known bus name")
        }
        let reply = try await callBus("RequestName", [.string(name), .uint32(flags.rawValue)])
        guard case .uint32(let code)? = reply.first, let answer = RequestNameReply(rawValue: code) else {
            throw DBusError.failed("unexpected RequestName reply \(reply)")
        }
        return answer
    }

    /// `requestName` for programs without Swift concurrency: blocks the calling thread (never the
    /// connection's own) until the bus answers.
    public func requestNameAndWait(_ name: String, flags: NameFlags = []) throws(DBusError) -> RequestNameReply {
        guard NameSyntax.isBusName(name), !name.hasPrefix(":") else {
            throw DBusError.invalidArgs("'\(name)' is not a well-known bus name")
        }
        let reply = try callAndWait(.methodCall(destination: BusDaemon.name, path: BusDaemon.path,
                                                interface: BusDaemon.interface, member: "RequestName",
                                                body: [.string(name), .uint32(flags.rawValue)]))
        guard case .uint32(let code)? = reply.body.first, let answer = RequestNameReply(rawValue: code) else {
            throw DBusError.failed("unexpected RequestName reply \(reply.body)")
        }
        return answer
    }

    /// `requestName` with a completion that runs on the I/O thread: for code that runs there (an
    /// exported object's handler) or that does not use Swift concurrency.
    public func requestName(_ name: String, flags: NameFlags = [],
                            completion: @escaping @Sendable (Result<RequestNameReply, DBusError>) -> Void) {
        guard NameSyntax.isBusName(name), !name.hasPrefix(":") else {
            return completion(.failure(.invalidArgs("'\(name)' is not a well-known bus name")))
        }
        call(.methodCall(destination: BusDaemon.name, path: BusDaemon.path, interface: BusDaemon.interface,
                         member: "RequestName", body: [.string(name), .uint32(flags.rawValue)])) { result in
            completion(result.flatMap { reply in
                guard case .uint32(let code)? = reply.body.first, let answer = RequestNameReply(rawValue: code) else {
                    return .failure(.failed("unexpected RequestName reply \(reply.body)"))
                }
                return .success(answer)
            })
        }
    }

    /// `releaseName` with a completion that runs on the I/O thread.
    public func releaseName(_ name: String,
                            completion: @escaping @Sendable (Result<ReleaseNameReply, DBusError>) -> Void) {
        call(.methodCall(destination: BusDaemon.name, path: BusDaemon.path, interface: BusDaemon.interface,
                         member: "ReleaseName", body: [.string(name)])) { result in
            completion(result.flatMap { reply in
                guard case .uint32(let code)? = reply.body.first, let answer = ReleaseNameReply(rawValue: code) else {
                    return .failure(.failed("unexpected ReleaseName reply \(reply.body)"))
                }
                return .success(answer)
            })
        }
    }

    /// Gives up `name` (or leaves its queue).
    @discardableResult
    public func releaseName(_ name: String) async throws(DBusError) -> ReleaseNameReply {
        let reply = try await callBus("ReleaseName", [.string(name)])
        guard case .uint32(let code)? = reply.first, let answer = ReleaseNameReply(rawValue: code) else {
            throw DBusError.failed("unexpected ReleaseName reply \(reply)")
        }
        return answer
    }

    /// The unique name owning `name`, or nil when nobody owns it.
    public func nameOwner(_ name: String) async throws(DBusError) -> String? {
        do {
            let reply = try await callBus("GetNameOwner", [.string(name)])
            guard case .string(let owner)? = reply.first else { return nil }
            return owner
        } catch where error.name == DBusError.Name.nameHasNoOwner {
            return nil
        }
    }

    /// Every name currently on the bus (`ListNames`).
    public func listNames() async throws(DBusError) -> [String] {
        let reply = try await callBus("ListNames")
        return try [String](dbusValue: reply.first ?? .array(element: .string, []))
    }

    /// Follows the owner of `name`: `handler` gets the current owner first (nil if none), then
    /// every change, on the I/O thread. Cancel the returned subscription to stop.
    public func watchNameOwner(_ name: String,
                               _ handler: @escaping @Sendable (String?) -> Void) async throws(DBusError) -> SignalSubscription {
        let rule = MatchRule(sender: BusDaemon.name, interface: BusDaemon.interface,
                             member: "NameOwnerChanged", path: BusDaemon.path, arguments: [0: name])
        let subscription = try await subscribe(rule) { signal in
            guard signal.body.count == 3, case .string(let owner) = signal.body[2] else { return }
            handler(owner.isEmpty ? nil : owner)
        }
        // Asked after the match is in place, so no change between the two can be missed.
        handler(try await nameOwner(name))
        return subscription
    }

    func callBus(_ member: String, _ body: [DBusValue] = []) async throws(DBusError) -> [DBusValue] {
        try await call(destination: BusDaemon.name, path: BusDaemon.path, interface: BusDaemon.interface,
                       member: member, body)
    }
}
