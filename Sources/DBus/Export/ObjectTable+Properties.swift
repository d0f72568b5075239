/// `org.freedesktop.DBus.Properties`, derived from the `Property` declarations, and
/// `PropertiesChanged` emission that announces only values that really changed.
extension ObjectTable {
    func answerProperties(_ path: ObjectPath, _ object: Object, _ member: String, _ answer: Answer) {
        let body = answer.call.body
        switch member {
        case "Get":
            guard body.count == 2, case .string(let interfaceName) = body[0], case .string(let name) = body[1] else {
                return answer.fail(Self.wrongArguments(member, "ss", answer.call))
            }
            do {
                let (_, property) = try lookup(object, interfaceName, name)
                answer.reply([.variant(try read(property))])
            } catch {
                answer.fail(error)
            }
        case "GetAll":
            guard body.count == 1, case .string(let interfaceName) = body[0] else {
                return answer.fail(Self.wrongArguments(member, "s", answer.call))
            }
            var interfaces = object.interfaces
            if !interfaceName.isEmpty {
                guard let interface = object.interface(named: interfaceName) else {
                    return answer.fail(DBusError(DBusError.Name.unknownInterface,
                                                 "object \(path) has no interface \(interfaceName)"))
                }
                interfaces = [interface]
            }
            // Written straight into the reply: no dictionary value is built for the a{sv}.
            answer.reply { (iter) throws(DBusError) in
                try Marshal.appendVariantMap(to: &iter) { (map) throws(DBusError) in
                    for interface in interfaces {
                        for property in interface.properties {
                            let value = try read(property)
                            do throws(DBusError) {
                                try map.append(property.name, value)
                            } catch {
                                throw DBusError.failed("the reply could not be marshalled: \(error.message)")
                            }
                        }
                    }
                }
            }
        case "Set":
            guard body.count == 3, case .string(let interfaceName) = body[0], case .string(let name) = body[1],
                  case .variant(let value) = body[2] else {
                return answer.fail(Self.wrongArguments(member, "ssv", answer.call))
            }
            do {
                let (interface, property) = try lookup(object, interfaceName, name)
                guard let set = property.setter else {
                    throw DBusError(DBusError.Name.propertyReadOnly, "property \(name) is read-only")
                }
                guard value.hasType(property.type) else {
                    throw DBusError.invalidArgs("property \(name) is '\(property.type.code)', not '\(value.type.code)'")
                }
                try set(value, answer.call)
                answer.reply([])
                announce(path, interface, [name], on: answer.core)
            } catch let error as DBusError {
                answer.fail(error)
            } catch {
                answer.fail(.failed(String(describing: error)))
            }
        default:
            answer.fail(DBusError(DBusError.Name.unknownMethod, "\(StandardInterfaceName.properties) has no method \(member)"))
        }
    }

    private static func wrongArguments(_ member: String, _ expected: String, _ call: Message) -> DBusError {
        .invalidArgs("\(member) takes '\(expected)', not '\(call.signature.code)'")
    }

    /// Finds a property and the interface that declares it (any interface when the name is empty).
    func lookup(_ object: Object, _ interfaceName: String,
                        _ name: String) throws(DBusError) -> (interface: String, property: Property) {
        let candidates = interfaceName.isEmpty ? object.interfaces : object.interface(named: interfaceName).map { [$0] }
        guard let candidates else {
            throw DBusError(DBusError.Name.unknownInterface, "no interface \(interfaceName)")
        }
        for interface in candidates {
            if let property = interface.property(named: name) { return (interface.name, property) }
        }
        throw DBusError(DBusError.Name.unknownProperty, "no property \(name) in \(interfaceName)")
    }

    /// Reads a property and checks the getter kept to the declared type.
    func read(_ property: Property) throws(DBusError) -> DBusValue {
        let value: DBusValue
        do {
            value = try property.getter()
        } catch let error as DBusError {
            throw error
        } catch {
            throw DBusError.failed(String(describing: error))
        }
        guard value.hasType(property.type) else {
            throw DBusError.failed("property \(property.name) produced '\(value.type.code)' but declares '\(property.type.code)'")
        }
        return value
    }

    /// Re-reads `names` and emits one `PropertiesChanged` carrying those whose value differs from
    /// the last one announced; nothing at all when none changed.
    func announce(_ path: ObjectPath, _ interfaceName: String, _ names: [String], on core: ConnectionCore) {
        guard var object = objects[path], let interface = object.interface(named: interfaceName) else { return }
        var changed: [DictionaryEntry] = []
        var invalidated: [DBusValue] = []
        var seen = Set<String>()
        for name in names where seen.insert(name).inserted {
            guard let property = interface.property(named: name),
                  property.changeSignal == .emits || property.changeSignal == .invalidates,
                  let value = try? read(property),
                  object.announced[interfaceName]?[name] != value else { continue }
            object.announced[interfaceName, default: [:]][name] = value
            if property.changeSignal == .emits {
                changed.append(DictionaryEntry(.string(name), .variant(value)))
            } else {
                invalidated.append(.string(name))
            }
        }
        objects[path] = object
        guard !changed.isEmpty || !invalidated.isEmpty else { return }
        let signal = Message.signal(path: path, interface: StandardInterfaceName.properties,
                                    member: "PropertiesChanged", body: [
                                        .string(interfaceName),
                                        .dictionary(key: .string, value: .variant, changed),
                                        .array(element: .string, invalidated),
                                    ])
        try? core.send(signal)
    }
}
