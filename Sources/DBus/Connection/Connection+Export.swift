extension Connection {
    /// Exports an object: from now on calls to `path` are answered from `interfaces`.
    ///
    /// Takes effect in order with everything sent afterwards, so exporting before `requestName`
    /// guarantees the object is there when the name appears (clients such as mpris-proxy read it
    /// at once).
    /// - Throws: `InvalidArgs` for a malformed declaration or a path already exported.
    public func export(_ path: ObjectPath, interfaces: [Interface]) throws(DBusError) -> ExportedObject {
        try Self.checkDeclarations(interfaces)
        let inserted = exportedPaths.withLock { $0.insert(path).inserted }
        guard inserted else { throw DBusError.invalidArgs("an object is already exported at \(path)") }
        guard onLoop({ $0.objects.add(path, interfaces) }) else {
            _ = exportedPaths.withLock { $0.remove(path) }
            throw DBusError.disconnected
        }
        return ExportedObject(connection: self, path: path, interfaces: interfaces)
    }

    func unexport(_ path: ObjectPath) {
        _ = exportedPaths.withLock { $0.remove(path) }
        onLoop { $0.objects.remove(path) }
    }

    private static func checkDeclarations(_ interfaces: [Interface]) throws(DBusError) {
        var names = Set<String>()
        for interface in interfaces {
            guard NameSyntax.isInterfaceName(interface.name) else {
                throw DBusError.invalidArgs("'\(interface.name)' is not an interface name")
            }
            guard names.insert(interface.name).inserted else {
                throw DBusError.invalidArgs("interface \(interface.name) is declared twice")
            }
            let members = interface.methods.map(\.name) + interface.properties.map(\.name) + interface.signals.map(\.name)
            for member in members where !NameSyntax.isMemberName(member) {
                throw DBusError.invalidArgs("'\(member)' in \(interface.name) is not a member name")
            }
        }
    }
}

/// An exported object: announce property changes, emit signals, or withdraw it.
public struct ExportedObject: Sendable {
    public let connection: Connection
    public let path: ObjectPath
    public let interfaces: [Interface]

    /// Re-reads the named properties of `interface` and emits one `PropertiesChanged` with those
    /// whose value differs from what was last announced. Nothing is sent when none changed.
    public func propertiesChanged(_ interface: String, _ names: [String]) {
        let path = self.path
        connection.onLoop { $0.objects.announce(path, interface, names, on: $0) }
    }

    /// Emits a declared signal; throws `InvalidArgs` if it is undeclared or the body does not match.
    public func emit(_ interface: String, _ signal: String, _ body: [DBusValue] = [],
                     destination: String? = nil) throws(DBusError) {
        guard let declaration = interfaces.first(where: { $0.name == interface })?
            .signals.first(where: { $0.name == signal }) else {
            throw DBusError.invalidArgs("signal \(interface).\(signal) is not declared on \(path)")
        }
        let produced = Signature(body.map(\.type))
        guard produced == declaration.signature else {
            throw DBusError.invalidArgs("\(signal) is '\(declaration.signature.code)', not '\(produced.code)'")
        }
        try connection.send(.signal(path: path, interface: interface, member: signal, body: body,
                                    destination: destination))
    }

    /// Stops answering for this object.
    public func unexport() {
        connection.unexport(path)
    }
}
