import SessionCore

/// A Bluetooth audio device becoming usable or going away: what a route monitor turns into a
/// SessionCore route change.
public enum BluetoothRouteEvent: Sendable, Hashable, CustomStringConvertible {
    /// A headset or speaker is connected with an audio profile: `newDeviceAvailable` (keep playing).
    case connected(AudioPort)
    /// It is gone: disconnected, out of range, removed, its adapter off or removed, or BlueZ itself
    /// gone: `oldDeviceUnavailable` (media pauses, G-HEADPHONES-OUT).
    case disconnected(AudioPort)

    /// The port concerned.
    public var port: AudioPort {
        switch self {
        case .connected(let port), .disconnected(let port): port
        }
    }

    /// The SessionCore reason this event stands for.
    public var reason: RouteChangeReason {
        switch self {
        case .connected: .newDeviceAvailable
        case .disconnected: .oldDeviceUnavailable
        }
    }

    public var description: String {
        switch self {
        case .connected(let port): "connected \(port) '\(port.name)'"
        case .disconnected(let port): "disconnected \(port) '\(port.name)'"
        }
    }

    /// The events that lead from routes `old` to routes `new` (both by port id): departures first,
    /// then arrivals, each in id order, so the sequence is deterministic.
    ///
    /// A device that stays a route is the same route: a new alias or a profile switch (A2DP ↔ HFP)
    /// only updates the stored port, without an event, because pausing playback for a rename would
    /// be wrong and a profile switch is not the headset leaving.
    static func changes(from old: [String: AudioPort], to new: [String: AudioPort]) -> [BluetoothRouteEvent] {
        let gone = old.keys.filter { new[$0] == nil }.sorted().compactMap { old[$0] }
        let arrived = new.keys.filter { old[$0] == nil }.sorted().compactMap { new[$0] }
        return gone.map { .disconnected($0) } + arrived.map { .connected($0) }
    }
}
