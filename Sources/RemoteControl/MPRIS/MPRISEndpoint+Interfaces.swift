import DBus

/// The two MPRIS interfaces, declared once for the binding (introspection, argument checks,
/// `Properties`, de-duplicated `PropertiesChanged`). Types and change annotations are the spec's
/// (MPRIS 2.2): `Position` `x` never signalled, `CanControl` not signalled, `Metadata` `a{sv}`,
/// `Rate`/`MinimumRate`/`MaximumRate`/`Volume` always present.
extension MPRISEndpoint {
    func makeInterfaces() -> [Interface] {
        [rootInterfaceDeclaration(), playerInterfaceDeclaration()]
    }

    /// Reads the published snapshot; fails when the endpoint is gone.
    private static func read(_ endpoint: MPRISEndpoint?,
                             _ value: (MPRISSnapshot) -> DBusValue) throws(DBusError) -> DBusValue {
        guard let endpoint else { throw DBusError.failed("the player has gone away") }
        return value(endpoint.published)
    }

    private static func gone() -> DBusError { DBusError.failed("the player has gone away") }

    private func rootInterfaceDeclaration() -> Interface {
        let configuration = self.configuration
        var properties: [Property] = [
            Property("CanQuit", .boolean, get: { [weak self] in
                try Self.read(self) { .boolean($0.can(.quit)) }
            }),
            Property("CanRaise", .boolean, get: { [weak self] in
                try Self.read(self) { .boolean($0.can(.raise)) }
            }),
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
        return Interface(Self.rootInterface, methods: [
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
        func flag(_ name: String, _ value: @escaping @Sendable (MPRISSnapshot) -> Bool) -> Property {
            Property(name, .boolean, get: { [weak self] in try Self.read(self) { .boolean(value($0)) } })
        }
        return Interface(Self.playerInterface, methods: [
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
            Property("PlaybackStatus", .string, get: { [weak self] in
                try Self.read(self) { .string($0.playbackStatus) }
            }),
            Property("LoopStatus", .string, get: { [weak self] in
                try Self.read(self) { .string($0.info.repeatMode.loopStatus) }
            }, set: { [weak self] value in
                guard let self else { throw Self.gone() }
                try self.setLoopStatus(try String(dbusValue: value))
            }),
            Property("Rate", .double, get: { [weak self] in
                try Self.read(self) { .double($0.info.rate) }
            }, set: { [weak self] value in
                guard let self else { throw Self.gone() }
                try self.setRate(try Double(dbusValue: value))
            }),
            Property("Shuffle", .boolean, get: { [weak self] in
                try Self.read(self) { .boolean($0.info.shuffle) }
            }, set: { [weak self] value in
                guard let self else { throw Self.gone() }
                try self.setShuffle(try Bool(dbusValue: value))
            }),
            Property("Metadata", .dictionary(key: .string, value: .variant), get: { [weak self] in
                try Self.read(self) { $0.metadata }
            }),
            Property("Volume", .double, get: { [weak self] in
                try Self.read(self) { .double($0.info.volume) }
            }, set: { [weak self] value in
                guard let self else { throw Self.gone() }
                try self.setVolume(try Double(dbusValue: value))
            }),
            // Computed on every Get, never announced (spec: EmitsChangedSignal false).
            Property("Position", .int64, changeSignal: .none, get: { [weak self] in
                try Self.read(self) { .int64($0.position().microseconds) }
            }),
            Property("MinimumRate", .double, get: { [weak self] in
                try Self.read(self) { .double($0.info.minimumRate) }
            }),
            Property("MaximumRate", .double, get: { [weak self] in
                try Self.read(self) { .double($0.info.maximumRate) }
            }),
            flag("CanGoNext") { $0.can(.nextTrack) },
            flag("CanGoPrevious") { $0.can(.previousTrack) },
            flag("CanPlay") { $0.can(.play) },
            flag("CanPause") { $0.can(.pause) },
            flag("CanSeek") { $0.canSeek },
            // The endpoint always accepts control; what it accepts is told by the other Can*.
            Property("CanControl", .boolean, changeSignal: .none, get: { .boolean(true) }),
        ], signals: [
            SignalDescription("Seeked", [Argument("Position", .int64)]),
        ])
    }
}
