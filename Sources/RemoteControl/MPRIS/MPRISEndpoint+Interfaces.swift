import DBus

/// The two MPRIS interfaces, declared once for the binding (introspection, argument checks,
/// `Properties`, de-duplicated `PropertiesChanged`). Types and change annotations are the spec's
/// (MPRIS 2.2): `Position` `x` never signalled, `CanControl` not signalled, `Metadata` `a{sv}`,
/// `Rate`/`MinimumRate`/`MaximumRate`/`Volume` always present.
extension MPRISEndpoint {
    func makeInterfaces() -> [Interface] {
        [rootInterfaceDeclaration(), playerInterfaceDeclaration()]
    }

    /// Computes a value from the published snapshot under the lock (no copy of the snapshot);
    /// fails when the endpoint is gone.
    private static func read(_ endpoint: MPRISEndpoint?,
                             _ value: (borrowing MPRISSnapshot) -> DBusValue) throws(DBusError) -> DBusValue {
        guard let endpoint else { throw gone() }
        return endpoint.state.withLock { value($0.published) }
    }

    private static func gone() -> DBusError { DBusError.failed("the player has gone away") }

    /// An announced property's current value (`MPRISSnapshot.values`), computed when it last
    /// changed: one lock, one array read.
    private static func value(_ endpoint: MPRISEndpoint?, _ property: AnnouncedProperty) throws(DBusError) -> DBusValue {
        guard let endpoint else { throw gone() }
        return endpoint.state.withLock { $0.values[property] }
    }

    /// An announced property, its name and type taken from `AnnouncedProperty` (declared once);
    /// `set`, when given, makes it writable.
    private func announced(_ property: AnnouncedProperty,
                           set: (@Sendable (MPRISEndpoint, DBusValue) throws -> Void)? = nil) -> Property {
        var setter: (@Sendable (DBusValue) throws -> Void)?
        if let set {
            setter = { @Sendable [weak self] (value: DBusValue) throws -> Void in
                guard let self else { throw Self.gone() }
                try set(self, value)
            }
        }
        return Property(property.name, property.type, get: { [weak self] in try Self.value(self, property) },
                        set: setter)
    }

    private func rootInterfaceDeclaration() -> Interface {
        let configuration = self.configuration
        var properties: [Property] = [
            announced(.canQuit),
            announced(.canRaise),
            Property("HasTrackList", .boolean, changeSignal: .constant, get: { .boolean(false) }),
            Property("Identity", .string, changeSignal: .constant, get: { .string(configuration.identity) }),
            Property("SupportedUriSchemes", .array(.string), changeSignal: .constant,
                     get: { configuration.supportedURISchemes.dbusValue }),
            Property("SupportedMimeTypes", .array(.string), changeSignal: .constant,
                     get: { configuration.supportedMIMETypes.dbusValue }),
        ]
        if let entry = configuration.desktopEntry {
            properties.append(Property("DesktopEntry", .string, changeSignal: .constant, get: { .string(entry) }))
        }
        return Interface(MPRISNames.rootInterface, methods: [
            .immediate("Raise") { [weak self] _ in
                guard let self else { throw Self.gone() }
                return try self.raiseOrQuit(.raise)
            },
            .immediate("Quit") { [weak self] _ in
                guard let self else { throw Self.gone() }
                return try self.raiseOrQuit(.quit)
            },
        ], properties: properties)
    }

    private func playerInterfaceDeclaration() -> Interface {
        func simple(_ name: String, _ method: @escaping @Sendable (MPRISEndpoint) throws -> [DBusValue]) -> Method {
            .immediate(name) { [weak self] _ in
                guard let self else { throw Self.gone() }
                return try method(self)
            }
        }
        return Interface(MPRISNames.playerInterface, methods: [
            simple("Next") { try $0.perform(.nextTrack) },
            simple("Previous") { try $0.perform(.previousTrack) },
            simple("Pause") { try $0.perform(.pause) },
            simple("PlayPause") { try $0.playPause() },
            simple("Stop") { try $0.perform(.stop) },
            simple("Play") { try $0.perform(.play) },
            .immediate("Seek", inputs: [Argument("Offset", .int64)]) { [weak self] call in
                guard let self else { throw Self.gone() }
                return try self.seek(by: try call.argument(0, as: Int64.self))
            },
            .immediate("SetPosition", inputs: [Argument("TrackId", .objectPath), Argument("Position", .int64)]) {
                [weak self] call in
                guard let self else { throw Self.gone() }
                return try self.setPosition(try call.argument(0, as: ObjectPath.self),
                                            try call.argument(1, as: Int64.self))
            },
            .immediate("OpenUri", inputs: [Argument("Uri", .string)]) { [weak self] call in
                guard let self else { throw Self.gone() }
                return try self.openURI(try call.argument(0, as: String.self))
            },
        ], properties: [
            announced(.playbackStatus),
            announced(.loopStatus) { try $0.setLoopStatus(try String(dbusValue: $1)) },
            announced(.rate) { try $0.setRate(try Double(dbusValue: $1)) },
            announced(.shuffle) { try $0.setShuffle(try Bool(dbusValue: $1)) },
            announced(.metadata),
            announced(.volume) { try $0.setVolume(try Double(dbusValue: $1)) },
            // Computed on every Get, never announced (spec: EmitsChangedSignal false).
            Property("Position", .int64, changeSignal: .none, get: { [weak self] in
                try Self.read(self) { .int64($0.position().microseconds) }
            }),
            announced(.minimumRate),
            announced(.maximumRate),
            announced(.canGoNext),
            announced(.canGoPrevious),
            announced(.canPlay),
            announced(.canPause),
            announced(.canSeek),
            // The endpoint always accepts control; what it accepts is told by the other Can*.
            Property("CanControl", .boolean, changeSignal: .none, get: { .boolean(true) }),
        ], signals: [
            SignalDescription("Seeked", [Argument("Position", .int64)]),
        ])
    }
}
