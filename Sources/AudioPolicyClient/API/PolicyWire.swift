import DBus

/// How the policy API's values travel (docs/audio-policy-api.md): the `a{sv}` keys, the signal
/// names and the error names. One place for both ends, so `PolicyService` and `PolicyClient`
/// cannot drift apart.
package enum PolicyWire {
    /// Keys of a configuration dictionary (`Register`, `SetConfiguration`).
    package enum ConfigurationKey {
        package static let category = "category"
        package static let mode = "mode"
        package static let options = "options"
        package static let name = "name"
        /// `Register` only: the daemon applies the session's ducking and interruptions to the
        /// audio-server streams of the caller's process tree (`mprisd run`).
        package static let manageStreams = "manageStreams"
    }

    /// Keys of `Activate` / `Deactivate` options.
    package enum ActivationKey {
        package static let allowDelayedActivation = "allowDelayedActivation"
        package static let alongsideOthers = "alongsideOthers"
        package static let notifyOthers = "notifyOthers"
    }

    /// Members of `org.mprisd.AudioSession1`'s signals.
    package enum Signal {
        package static let interruption = "Interruption"
        package static let routeChange = "RouteChange"
        package static let secondaryAudioHint = "SecondaryAudioHint"
        package static let ducking = "Ducking"
        package static let delayedActivation = "DelayedActivation"
        package static let silentModeChanged = "SilentModeChanged"
        package static let outputVolumeChanged = "OutputVolumeChanged"
    }

    /// `a{sv}`, the type of every options argument.
    package static let dictionaryType = DBusType.dictionary(key: .string, value: .variant)

    /// An `a{sv}` value from Swift pairs, in the given order.
    package static func dictionary(_ pairs: [(String, DBusValue)]) -> DBusValue {
        .dictionary(key: .string, value: .variant,
                    pairs.map { DictionaryEntry(.string($0.0), .variant($0.1)) })
    }

    /// The entries of an `a{sv}` argument as key → unwrapped value. A repeated key keeps its last
    /// value (what libdbus-based peers do as well).
    package static func entries(of value: DBusValue) throws(DBusError) -> [String: DBusValue] {
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
