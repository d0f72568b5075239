/// Which ports a configuration may use and which it gets (G-HEADPHONES-IN, G-ROUTE-PICK, options
/// allowBluetooth / allowBluetoothA2DP / allowNetworkReceivers / defaultToSpeaker).
///
/// Automatic routing follows "last connected wins" among the allowed ports, falling back to the
/// built-in ones; network receivers and pick-only ports (outputs named in the configuration) are
/// used only when the user picks them. A user override wins
/// whenever the picked port is allowed for the configuration. multiRoute gets every allowed
/// automatic output at once.
public enum RouteSelection {
    /// Whether `configuration` may send output to a port of type `type`.
    public static func allowsOutput(_ type: PortType, for configuration: SessionConfiguration) -> Bool {
        guard type.isOutput, configuration.category.hasOutput else { return false }
        let options = configuration.options
        let isPlayAndRecord = configuration.category == .playAndRecord
        switch type {
        case .speaker, .headphones, .usbAudio, .hdmi, .lineOut: return true
        case .bluetoothA2DP: return !isPlayAndRecord || options.contains(.allowBluetoothA2DP)
        case .bluetoothHFP: return isPlayAndRecord && options.contains(.allowBluetooth)
        case .network: return !isPlayAndRecord || options.contains(.allowNetworkReceivers)
        case .headsetMic, .builtInMic: return false
        }
    }

    /// Whether `configuration` may capture from a port of type `type`.
    public static func allowsInput(_ type: PortType, for configuration: SessionConfiguration) -> Bool {
        guard type.isInput, configuration.category.hasInput else { return false }
        if type == .bluetoothHFP { return configuration.options.contains(.allowBluetooth) }
        return true
    }

    /// The route `configuration` gets under `conditions`.
    public static func route(for configuration: SessionConfiguration,
                             in conditions: SystemConditions) -> AudioRoute {
        var route = AudioRoute()
        if configuration.category.hasOutput {
            let allowed = conditions.availableOutputs.filter { allowsOutput($0.type, for: configuration) }
            if configuration.category == .multiRoute {
                route.outputs = allowed.filter { $0.type != .network && !$0.pickOnly }
            } else if let port = pick(allowed, override: conditions.routeOverride,
                                      preferSpeaker: configuration.options.contains(.defaultToSpeaker)) {
                route.outputs = [port]
            }
        }
        if configuration.category.hasInput {
            let allowed = conditions.availableInputs.filter { allowsInput($0.type, for: configuration) }
            if let port = pick(allowed, override: conditions.routeOverride, preferSpeaker: false) {
                route.inputs = [port]
            }
        }
        return route
    }

    private static func pick(_ allowed: [AudioPort], override: String?, preferSpeaker: Bool) -> AudioPort? {
        if let override, let picked = allowed.first(where: { $0.id == override }) { return picked }
        let automatic = allowed.filter { $0.type != .network && !$0.pickOnly }
        if let privatePort = automatic.last(where: { $0.type.isPrivate }) { return privatePort }
        if preferSpeaker, let speaker = automatic.last(where: { $0.type == .speaker }) { return speaker }
        return automatic.last(where: { !$0.type.isBuiltIn }) ?? automatic.last
    }
}
