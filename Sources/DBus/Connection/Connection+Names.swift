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

    /// Asks the bus for `name`; `completion` runs on the I/O thread (for code that runs there, an
    /// exported object's handler, or that does not use Swift concurrency). `.nameAcquired` and
    /// `.nameLost` events follow ownership changes.
    public func requestName(_ name: String, flags: NameFlags = [],
                            completion: @escaping @Sendable (Result<RequestNameReply, DBusError>) -> Void) {
        guard NameSyntax.isBusName(name), !name.hasPrefix(":") else {
            return completion(.failure(.invalidArgs("'\(name)' is not a well-known bus name")))
        }
        callBus("RequestName", [.string(name), .uint32(flags.rawValue)]) { reply in
            completion(reply.flatMap { Self.code($0, of: "RequestName") })
        }
    }

    /// The async form of `requestName(_:flags:completion:)`.
    public func requestName(_ name: String, flags: NameFlags = []) async throws(DBusError) -> RequestNameReply {
        try await awaiting { requestName(name, flags: flags, completion: $0) }
    }

    /// `requestName` for programs without Swift concurrency: blocks the calling thread (never the
    /// connection's own) until the bus answers.
    public func requestNameAndWait(_ name: String, flags: NameFlags = []) throws(DBusError) -> RequestNameReply {
        try waiting { requestName(name, flags: flags, completion: $0) }
    }

    /// Gives up `name` (or leaves its queue); `completion` runs on the I/O thread.
    public func releaseName(_ name: String,
                            completion: @escaping @Sendable (Result<ReleaseNameReply, DBusError>) -> Void) {
        callBus("ReleaseName", [.string(name)]) { reply in
            completion(reply.flatMap { Self.code($0, of: "ReleaseName") })
        }
    }

    /// The async form of `releaseName(_:completion:)`.
    @discardableResult
    public func releaseName(_ name: String) async throws(DBusError) -> ReleaseNameReply {
        try await awaiting { releaseName(name, completion: $0) }
    }

    /// The unique name owning `name`, or nil when nobody owns it; `completion` runs on the I/O thread.
    func nameOwner(_ name: String, completion: @escaping Completion<String?>) {
        callBus("GetNameOwner", [.string(name)]) { reply in
            switch reply {
            case .success(let body):
                guard case .string(let owner)? = body.first, !owner.isEmpty else { return completion(.success(nil)) }
                completion(.success(owner))
            case .failure(let error) where error.name == DBusError.Name.nameHasNoOwner:
                completion(.success(nil))
            case .failure(let error):
                completion(.failure(error))
            }
        }
    }

    /// The unique name owning `name`, or nil when nobody owns it.
    public func nameOwner(_ name: String) async throws(DBusError) -> String? {
        try await awaiting { nameOwner(name, completion: $0) }
    }

    /// Every name currently on the bus (`ListNames`).
    public func listNames() async throws(DBusError) -> [String] {
        let reply = try await awaiting { callBus("ListNames", completion: $0) }
        return try [String](dbusValue: reply.first ?? .array(element: .string, []))
    }

    /// Follows the owner of `name`: `handler` gets the current owner first (nil if none), then
    /// every change, on the I/O thread. Cancel the returned subscription to stop. The async form of
    /// `watchNameOwner(_:_:completion:)`.
    public func watchNameOwner(_ name: String,
                               _ handler: @escaping @Sendable (String?) -> Void) async throws(DBusError) -> SignalSubscription {
        try await awaiting { watchNameOwner(name, handler, completion: $0) }
    }

    /// The reply code of `RequestName` or `ReleaseName`.
    private static func code<Reply: RawRepresentable<UInt32>>(_ body: [DBusValue], of member: String) -> Result<Reply, DBusError> {
        guard case .uint32(let code)? = body.first, let answer = Reply(rawValue: code) else {
            return .failure(.failed("unexpected \(member) reply \(body)"))
        }
        return .success(answer)
    }
}
