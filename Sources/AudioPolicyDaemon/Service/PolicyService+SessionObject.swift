import AudioPolicyClient
import DBus
import SessionCore

/// `/org/mprisd/AudioPolicy/session/N`, `org.mprisd.AudioSession1`: the owner's requests and
/// everyone's read-only view.
extension PolicyService {
    /// Every property of the session interface (all of them announce changes).
    static let sessionProperties = ["Category", "Mode", "Options", "Active", "Interrupted", "Ducked", "Owner", "Name"]
    /// The properties an event of the engine can change.
    static let stateProperties = ["Active", "Interrupted", "Ducked"]

    func sessionInterface(_ served: ServedSession) -> Interface {
        let number = served.number
        /// A method that only the owner may call; `body` gets the session and the call.
        func owned(_ name: String, inputs: [Argument] = [],
                   _ body: @escaping @Sendable (PolicyService, ServedSession, Message) throws -> Void) -> Method {
            .immediate(name, inputs: inputs) { [weak self] call in
                guard let self else { throw Self.gone }
                let served = try self.authorize(call, number)
                try body(self, served, call)
                served.object?.propertiesChanged(AudioPolicyNames.sessionInterface, Self.sessionProperties)
                return []
            }
        }
        func property(_ name: String, _ type: DBusType,
                      _ value: @escaping @Sendable (ServedSession) -> DBusValue) -> Property {
            Property(name, type, get: { [weak served] in
                guard let served else { throw DBusError(DBusError.Name.unknownObject, "session \(number) is gone") }
                return value(served)
            })
        }
        let dictionary = PolicyWire.dictionaryType
        return Interface(AudioPolicyNames.sessionInterface, methods: [
            owned("SetConfiguration", inputs: [Argument("configuration", dictionary)]) { service, served, call in
                try service.configure(served, call)
            },
            owned("Activate", inputs: [Argument("options", dictionary)]) { service, served, call in
                try service.activate(served, try PolicyWire.decodeActivation(Self.firstArgument(call)))
            },
            owned("Deactivate", inputs: [Argument("options", dictionary)]) { service, served, call in
                try service.deactivate(served, try PolicyWire.decodeDeactivation(Self.firstArgument(call)))
            },
            owned("SetIORunning", inputs: [Argument("running", .boolean)]) { service, served, call in
                let running = try call.argument(0, as: Bool.self)
                do throws(SessionError) {
                    try served.session.setIORunning(running)
                } catch {
                    service.log("\(served.label) I/O \(running ? "start" : "stop") refused: \(error)")
                    throw PolicyWire.dbusError(error)
                }
                service.log("\(served.label) I/O \(running ? "running" : "stopped")")
            },
            owned("Unregister") { service, served, _ in
                service.remove(served.number, because: "unregistered")
            },
        ], properties: [
            property("Category", .string) { .string($0.session.category.rawValue) },
            property("Mode", .string) { .string($0.session.mode.rawValue) },
            property("Options", .array(.string)) {
                .array(element: .string, $0.session.options.elements.map { .string($0.rawValue) })
            },
            property("Active", .boolean) { .boolean($0.session.isActive) },
            property("Interrupted", .boolean) { .boolean($0.session.isInterrupted) },
            property("Ducked", .boolean) { .boolean($0.session.isDucked) },
            property("Owner", .string) { .string($0.owner) },
            property("Name", .string) { .string($0.name) },
        ], signals: PolicyWire.signalDescriptions)
    }

    private static func firstArgument(_ call: Message) throws(DBusError) -> DBusValue {
        guard let first = call.body.first else { throw DBusError.invalidArgs("the options argument is missing") }
        return first
    }

    /// The session `number` if the caller owns it: `AccessDenied` for anyone else (logged).
    private func authorize(_ call: Message, _ number: UInt64) throws(DBusError) -> ServedSession {
        guard let served = served(number) else {
            throw DBusError(DBusError.Name.unknownObject, "session \(number) is gone")
        }
        guard call.sender == served.owner else {
            log("\(served.label): \(call.member ?? "call") by \(call.sender ?? "?") denied")
            throw DBusError.accessDenied("session \(number) belongs to \(served.owner)")
        }
        return served
    }

    private func configure(_ served: ServedSession, _ call: Message) throws(DBusError) {
        let request = try PolicyWire.decodeConfiguration(Self.firstArgument(call))
        let name = try request.name.map { name throws(DBusError) in try PolicyLimits.check(name, "the session name") }
        let configuration = request.configuration
        let change: ConfigurationChange
        do {
            change = try served.session.setCategory(configuration.category, mode: configuration.mode,
                                                    options: configuration.options)
        } catch {
            log("\(served.label) configuration \(configuration) refused: \(error)")
            throw PolicyWire.dbusError(error)
        }
        if let name { served.name = name }
        let ignored = change.ignoredMode.map { " (mode \($0) does not fit: default)" } ?? ""
        log("\(served.label) configured as \(served.session.configuration)\(ignored)")
    }

    private func activate(_ served: ServedSession, _ options: ActivationOptions) throws(DBusError) {
        do {
            switch try served.session.setActive(true, options: options) {
            case .delayed: log("\(served.label) activation delayed: a call owns audio")
            case .active, .inactive: log("\(served.label) activated")
            }
        } catch {
            log("\(served.label) activation refused: \(error)")
            throw PolicyWire.dbusError(error)
        }
    }

    private func deactivate(_ served: ServedSession, _ options: ActivationOptions) throws(DBusError) {
        let notify = options.contains(.notifyOthersOnDeactivation) ? " notifying others" : ""
        do {
            try served.session.setActive(false, options: options)
        } catch {
            // isBusy: deactivated all the same.
            log("\(served.label) deactivated\(notify): \(error)")
            throw PolicyWire.dbusError(error)
        }
        log("\(served.label) deactivated\(notify)")
    }
}
