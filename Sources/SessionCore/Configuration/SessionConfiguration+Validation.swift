extension SessionCategory {
    /// The options this category accepts (field notes; G-CAT-OPTIONS: options that do not fit a
    /// category are an error).
    public var allowedOptions: SessionOptions {
        switch self {
        case .soloAmbient, .multiRoute, .audioProcessing: []
        case .ambient: [.mixWithOthers, .duckOthers]
        case .playback: [.mixWithOthers, .duckOthers, .interruptSpokenAudioAndMixWithOthers]
        case .record: [.allowBluetooth]
        case .playAndRecord:
            [.mixWithOthers, .duckOthers, .interruptSpokenAudioAndMixWithOthers, .allowBluetooth,
             .allowBluetoothA2DP, .allowNetworkReceivers, .defaultToSpeaker,
             .overrideMutedMicrophoneInterruption]
        }
    }
}

/// The outcome of validating a configuration (G-CAT-OPTIONS).
public struct ValidatedConfiguration: Sendable, Hashable {
    /// The configuration as it takes effect: an invalid mode replaced by `.default`.
    public var effective: SessionConfiguration
    /// The requested mode when it was not valid for the category and was replaced by `.default`.
    public var ignoredMode: SessionMode?
}

extension SessionConfiguration {
    /// Checks the options against the category (G-CAT-OPTIONS) and normalises the mode.
    ///
    /// - Throws: `SessionError.badParam(.optionNotAllowed(option:category:))` naming the first
    ///   option, in declaration order, that the category does not accept.
    /// - Returns: the effective configuration; a mode not valid for the category becomes `.default`
    ///   and is reported in `ignoredMode`.
    public func validated() throws(SessionError) -> ValidatedConfiguration {
        let allowed = category.allowedOptions
        for option in options.elements where !allowed.contains(option) {
            throw .badParam(.optionNotAllowed(option: option, category: category))
        }
        if mode.isValid(for: category) {
            return ValidatedConfiguration(effective: self, ignoredMode: nil)
        }
        var effective = self
        effective.mode = .default
        return ValidatedConfiguration(effective: effective, ignoredMode: mode)
    }
}
