import AudioPolicyClient
import DBus
import SessionCore

/// `/org/mprisd/AudioPolicy`, `org.mprisd.AudioPolicy1`: registration, the user's settings and
/// the status document.
extension PolicyService {
    func policyInterface() -> Interface {
        Interface(AudioPolicyNames.interface, methods: [
            .immediate("Register", inputs: [Argument("configuration", PolicyWire.dictionaryType)],
                       outputs: [Argument("session", .objectPath)]) { [weak self] call in
                guard let self else { throw Self.gone }
                return [.objectPath(try self.register(call))]
            },
            .immediate("SetSilentMode", inputs: [Argument("on", .boolean)]) { [weak self] call in
                guard let self else { throw Self.gone }
                let on = try call.argument(0, as: Bool.self)
                self.applySilentMode(on)
                self.log("silent mode \(on ? "on" : "off") (asked by \(call.sender ?? "?"))")
                return []
            },
            .immediate("SetRouteOverride", inputs: [Argument("portID", .string)]) { [weak self] call in
                guard let self else { throw Self.gone }
                let portID = try PolicyLimits.check(try call.argument(0, as: String.self), "the port id")
                do throws(SessionError) {
                    try self.applyRouteOverride(portID.isEmpty ? nil : portID)
                } catch {
                    self.log("route override '\(portID)' refused: \(error)")
                    throw PolicyWire.dbusError(error)
                }
                self.log("route override \(portID.isEmpty ? "automatic" : portID) (asked by \(call.sender ?? "?"))")
                return []
            },
            .immediate("GetStatus", outputs: [Argument("json", .string)]) { [weak self] _ in
                guard let self else { throw Self.gone }
                return [.string(try self.statusJSON())]
            },
        ] + playerMethods(), properties: [
            Property("SilentMode", .boolean, get: { [system] in .boolean(system.conditions.isSilentMode) }),
            Property("Locked", .boolean, get: { [system] in .boolean(system.conditions.isLocked) }),
            // -1: unknown (no mixer is followed); the status document leaves it out then.
            Property("OutputVolume", .double, get: { [system] in .double(system.conditions.knownOutputVolume ?? -1) }),
            Property("RouteOverride", .string, get: { [system] in .string(system.conditions.routeOverride ?? "") }),
            Property("Version", .string, changeSignal: .constant, get: { [version] in .string(version) }),
        ])
    }

    static var gone: DBusError { DBusError.failed("the policy service has stopped") }

    /// `Register`: a new session owned by the caller, exported before the reply names it. Within
    /// `PolicyLimits`: the caller's sessions and the name's length.
    private func register(_ call: Message) throws(DBusError) -> ObjectPath {
        guard let owner = call.sender else { throw DBusError.accessDenied("a session needs a sender") }
        guard let argument = call.body.first else { throw DBusError.invalidArgs("configuration is missing") }
        let request = try PolicyWire.decodeConfiguration(argument)
        let name = try PolicyLimits.check(request.name ?? "", "the session name")
        guard let number = takeSlot(for: owner) else {
            log("registration by \(owner) refused: it has \(PolicyLimits.sessionsPerOwner) sessions already")
            throw PolicyLimits.exceeded("\(owner) has \(PolicyLimits.sessionsPerOwner) sessions already, the most one connection may have")
        }
        let session: AudioSession
        do {
            session = try system.makeSession(request.configuration)
        } catch {
            releaseSlot(of: owner)
            log("registration by \(owner) refused: \(error)")
            throw PolicyWire.dbusError(error)
        }
        // A desktop has no permission prompt: the system's decider answers at once (it grants by
        // default), so a call app's playAndRecord activation is not refused for want of asking.
        _ = session.requestRecordPermission()
        let served = ServedSession(number: number, session: session, owner: owner, name: name,
                                   managesStreams: request.manageStreams)
        let path: ObjectPath
        let object: ExportedObject
        do {
            path = try AudioPolicyNames.sessionPath(served.number)
            object = try connection.export(path, interfaces: [sessionInterface(served)])
        } catch {
            releaseSlot(of: owner)
            throw error
        }
        let subscription = session.onEvent { [weak self, weak served] event in
            if let self, let served { self.deliver(event, to: served) }
        }
        served.attach(object: object, subscription: subscription)
        let accepted = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.sessions[number] = served
            // Entered under the service's lock: `remove` takes it out after it left the table.
            sessions.add(SessionDirectory.Entry(id: session.id, number: number, label: served.label,
                                                owner: owner, kind: .client))
            return true
        }
        guard accepted else {
            served.detach()
            throw Self.gone
        }
        log("\(served.label) registered as \(session.configuration)\(request.manageStreams ? " (its streams managed)" : "")")
        followedStreams?.follow(served)
        followedPlayers?.ownerRegistered(owner)
        return path
    }
}
