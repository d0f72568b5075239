import AudioDevices
import SessionCore

/// Outputs appearing and disappearing (headphone jacks, Bluetooth headsets) become route changes
/// of the session; the playback rules then pause on *oldDeviceUnavailable* (G-HEADPHONES-OUT) and
/// keep playing on *newDeviceAvailable* (G-HEADPHONES-IN) and on the user's pick (G-ROUTE-PICK).
/// When the route moves to an ALSA device named in the configuration, playback moves there too.
/// Callable from any thread.
extension PlayerEngine {
    /// Ports that are now available (plugged in, connected).
    public func portsConnected(_ ports: [AudioPort]) { routing.portsConnected(ports) }

    /// Ports that went away (unplugged, disconnected, out of range).
    public func portsDisconnected(_ portIDs: [String]) { routing.portsDisconnected(portIDs) }

    /// The system output volume changed (G-VOLUME: read, never written; muted counts as 0).
    public func outputVolumeChanged(_ volume: OutputVolume) { routing.outputVolumeChanged(volume) }

    /// The session's route changed: play through the configured PCM of its output port, or the
    /// player's own device for every other port (jacks and Bluetooth are reached through it).
    func follow(_ route: AudioRoute) {
        let device = route.outputs.first.flatMap { routing.configuredPCM(forPort: $0.id) } ?? options.device
        let changed = shared.withLock { state in
            defer { state.outputDevice = device }
            return state.outputDevice != device
        }
        if changed { change { _ in } }
    }
}
