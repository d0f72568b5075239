import DBus
import SessionCore

/// Configuration and activation-option dictionaries: decoded strictly by the daemon (an unknown
/// name or a wrong type is `InvalidArgs` naming the key; unknown keys are ignored so that keys can
/// be added later), encoded by the client.
extension PolicyWire {
    /// A decoded configuration dictionary. Missing keys take SessionConfiguration's defaults
    /// (options are not sticky); `name` is nil when absent. `manageStreams` (false when absent)
    /// is read by `Register` only.
    package struct ConfigurationRequest: Sendable, Hashable {
        package var configuration: SessionConfiguration
        package var name: String?
        package var manageStreams = false
    }

    package static func decodeConfiguration(_ value: DBusValue) throws(DBusError) -> ConfigurationRequest {
        let entries = try entries(of: value)
        var configuration = SessionConfiguration()
        if let raw = entries[ConfigurationKey.category] {
            let text = try string(raw, key: ConfigurationKey.category)
            guard let category = SessionCategory(rawValue: text) else {
                throw DBusError.invalidArgs("\(ConfigurationKey.category): unknown category '\(text)'")
            }
            configuration.category = category
        }
        if let raw = entries[ConfigurationKey.mode] {
            let text = try string(raw, key: ConfigurationKey.mode)
            guard let mode = SessionMode(rawValue: text) else {
                throw DBusError.invalidArgs("\(ConfigurationKey.mode): unknown mode '\(text)'")
            }
            configuration.mode = mode
        }
        if let raw = entries[ConfigurationKey.options] {
            guard case .array(.string, let items) = raw else {
                throw wrongType(ConfigurationKey.options, expected: .array(.string), got: raw)
            }
            var options: [SessionOption] = []
            for item in items {
                guard case .string(let text) = item, let option = SessionOption(rawValue: text) else {
                    throw DBusError.invalidArgs("\(ConfigurationKey.options): unknown option \(item)")
                }
                options.append(option)
            }
            configuration.options = SessionOptions(options)
        }
        var name: String?
        if let raw = entries[ConfigurationKey.name] {
            name = try string(raw, key: ConfigurationKey.name)
        }
        var manageStreams = false
        if let raw = entries[ConfigurationKey.manageStreams] {
            manageStreams = try flag(raw, key: ConfigurationKey.manageStreams)
        }
        return ConfigurationRequest(configuration: configuration, name: name, manageStreams: manageStreams)
    }

    /// The configuration dictionary; `manageStreams` is only written when true (a daemon that
    /// predates the key ignores it anyway).
    package static func encodeConfiguration(_ configuration: SessionConfiguration, name: String?,
                                            manageStreams: Bool = false) -> DBusValue {
        var pairs: [(String, DBusValue)] = [
            (ConfigurationKey.category, .string(configuration.category.rawValue)),
            (ConfigurationKey.mode, .string(configuration.mode.rawValue)),
            (ConfigurationKey.options, .array(element: .string,
                                              configuration.options.elements.map { .string($0.rawValue) })),
        ]
        if let name { pairs.append((ConfigurationKey.name, .string(name))) }
        if manageStreams { pairs.append((ConfigurationKey.manageStreams, .boolean(true))) }
        return dictionary(pairs)
    }

    /// `Activate`'s dictionary: `allowDelayedActivation` b, `alongsideOthers` b.
    package static func decodeActivation(_ value: DBusValue) throws(DBusError) -> ActivationOptions {
        let entries = try entries(of: value)
        var options: ActivationOptions = []
        if let raw = entries[ActivationKey.allowDelayedActivation],
           try flag(raw, key: ActivationKey.allowDelayedActivation) {
            options.insert(.allowDelayedActivation)
        }
        if let raw = entries[ActivationKey.alongsideOthers], try flag(raw, key: ActivationKey.alongsideOthers) {
            options.insert(.alongsideOthers)
        }
        return options
    }

    /// `Deactivate`'s dictionary: `notifyOthers` b.
    package static func decodeDeactivation(_ value: DBusValue) throws(DBusError) -> ActivationOptions {
        let entries = try entries(of: value)
        guard let raw = entries[ActivationKey.notifyOthers] else { return [] }
        return try flag(raw, key: ActivationKey.notifyOthers) ? .notifyOthersOnDeactivation : []
    }

    private static func string(_ value: DBusValue, key: String) throws(DBusError) -> String {
        guard case .string(let text) = value else { throw wrongType(key, expected: .string, got: value) }
        return text
    }

    private static func flag(_ value: DBusValue, key: String) throws(DBusError) -> Bool {
        guard case .boolean(let flag) = value else { throw wrongType(key, expected: .boolean, got: value) }
        return flag
    }

    private static func wrongType(_ key: String, expected: DBusType, got value: DBusValue) -> DBusError {
        DBusError.invalidArgs("\(key): expected '\(expected.code)', got '\(value.type.code)'")
    }
}
