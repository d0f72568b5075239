import AudioDevices
import SessionCore

/// Outputs appearing and disappearing (headphone jacks, Bluetooth headsets) become route changes
/// of the session; the playback rules then pause on *oldDeviceUnavailable* (G-HEADPHONES-OUT) and
/// keep playing on *newDeviceAvailable* (G-HEADPHONES-IN). Callable from any thread.
extension PlayerEngine {
    /// Ports that are now available (plugged in, connected).
    public func portsConnected(_ ports: [AudioPort]) {
        guard !ports.isEmpty else { return }
        system.connect(ports)
        applyRoutePick()
    }

    /// The system output volume changed (G-VOLUME: read, never written; muted counts as 0).
    public func outputVolumeChanged(_ volume: OutputVolume) {
        try? system.setOutputVolume(volume.muted ? 0 : volume.level)
    }

    /// Ports that went away (unplugged, disconnected, out of range).
    public func portsDisconnected(_ portIDs: [String]) {
        guard !portIDs.isEmpty else { return }
        system.disconnect(portIDs)
    }
}
