import DBus

/// How the policy API's values travel (docs/audio-policy-api.md): the `a{sv}` keys, the signal
/// names and the error names. One place for both ends, so `PolicyService` and `PolicyClient`
/// cannot drift apart.
enum PolicyWire {
    /// Keys of a configuration dictionary (`Register`, `SetConfiguration`).
    enum ConfigurationKey {
        static let category = "category"
        static let mode = "mode"
        static let options = "options"
        static let name = "name"
    }

    /// Keys of `Activate` / `Deactivate` options.
    enum ActivationKey {
        static let allowDelayedActivation = "allowDelayedActivation"
        static let alongsideOthers = "alongsideOthers"
        static let notifyOthers = "notifyOthers"
    }

    /// Members of `org.mprisd.AudioSession1`'s signals.
    enum Signal {
        static let interruption = "Interruption"
        static let routeChange = "RouteChange"
        static let secondaryAudioHint = "SecondaryAudioHint"
        static let ducking = "Ducking"
        static let delayedActivation = "DelayedActivation"
        static let silentModeChanged = "SilentModeChanged"
        static let outputVolumeChanged = "OutputVolumeChanged"
    }

    /// `a{sv}`, the type of every options argument.
    static let dictionaryType = DBusType.dictionary(key: .string, value: .variant)

    /// An `a{sv}` value from Swift pairs, in the given order.
    static func dictionary(_ pairs: [(String, DBusValue)]) -> DBusValue {
        .dictionary(key: .string, value: .variant,
                    pairs.map { DictionaryEntry(.string($0.0), .variant($0.1)) })
    }

    /// The entries of an `a{sv}` argument as key → unwrapped value. A repeated key keeps its last
    /// value (what libdbus-based peers do as well).
    static func entries(of value: DBusValue) throws(DBusError) -> [String: DBusValue] {
        guard case .dictionary(.string, .variant, let entries) = value else {
            throw DBusError.invalidArgs("expected 'a{sv}', got '\(value.type.code)'")
        }
        var result: [String: DBusValue] = [:]
        for entry in entries {
            guard case .string(let key) = entry.key, case .variant(let inner) = entry.value else { continue }
            result[key] = inner
        }
        return result
    }
}
