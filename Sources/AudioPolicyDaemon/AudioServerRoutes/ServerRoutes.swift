import AudioServer
import SessionCore

/// What one `InventoryChange` means for the engine's routes and the microphone mute, in the
/// order it is applied: removals first (sessions on them get *oldDeviceUnavailable* and pause),
/// then new ports (*newDeviceAvailable*, never a pause), then the user's pick (*override*, never
/// a pause), then the microphone.
public struct ServerRouteUpdate: Sendable, Hashable {
    /// Port ids that went away.
    public var disconnected: [String] = []
    /// Ports that appeared, or came back (available again, or with a new name or type).
    public var connected: [AudioPort] = []
    /// The port the user picked by changing the server's default sink; nil: no pick in this change.
    public var picked: String?
    /// The microphone mute key's new state; nil: unchanged.
    public var micMuted: Bool?
    /// On a connection: the default sink's port, which automatic routing should land on (the
    /// follower applies it as the pick only where it does not; see `ServerRouteFollower`).
    public var defaultAtConnection: String?

    public init(disconnected: [String] = [], connected: [AudioPort] = [], picked: String? = nil, micMuted: Bool? = nil,
                defaultAtConnection: String? = nil) {
        self.disconnected = disconnected
        self.connected = connected
        self.picked = picked
        self.micMuted = micMuted
        self.defaultAtConnection = defaultAtConnection
    }

    public var isEmpty: Bool {
        disconnected.isEmpty && connected.isEmpty && picked == nil && micMuted == nil && defaultAtConnection == nil
    }
}

/// The audio server's sinks as output ports, its default sink as the user's route pick and its
/// default source's mute as the microphone mute key — derived from `InventoryChange`s, with no I/O
/// (`ServerRouteFollower` applies the result). The rules:
///
/// - **Ports**: each available sink is an output port (`ServerSinkPort`); the diff against the
///   ports reported before gives what connects and disconnects. A sink whose active port becomes
///   unavailable disconnects, available again connects; one whose active port is unplugged and
///   that the server switched to another port (headphones → speakers, as both servers do) goes
///   away and comes back as that port — its streams' sound left the device they played on.
/// - **ALSA jacks** (`JackWatch`): for a sink on a card whose jacks the daemon reads directly, the
///   server's port availability and active port are ignored — the jacks report plugging once; the
///   sink itself still appears and goes with its card.
/// - **Bluetooth**: while the daemon follows BlueZ itself (`BluetoothMonitor` on the system bus),
///   the server's Bluetooth sinks are not ports: BlueZ reports the same headset (connected,
///   gone) under its device path, and reporting both would pause a player twice.
/// - **Default sink → pick**: a change of the default sink while connected is the user's route
///   pick (pactl, GNOME, KDE), applied the way `mprisd route use` is (not persisted: the server
///   keeps its own default); the latest of the two acts wins. The default found at connection is
///   not a pick (nobody picked it now): routing stays automatic (the default sink connects last of
///   the ports read, so of equals it gets the route), or keeps the pick it had. Only where automatic
///   routing would land elsewhere with no pick (a laptop's speakers as default, an HDMI monitor
///   outranking them) is the default applied as the pick, so that the engine's route is where the
///   server sends audio and unplugging the monitor pauses nothing. A default
///   that changes because the old default sink went away is the server's fallback, not a pick:
///   the user's pick is remembered and applies again when its sink comes back (as both servers do).
/// - **Microphone**: the default source, when it is not a monitor, muted → `true`; unmuted, no
///   default source, a monitor as default, or no server → `false` (unknown counts as unmuted: a
///   recording session is never held by a key nobody can see).
/// - **Server restart**: `.disconnected` keeps the ports (a restarting server must not pause
///   players on devices that come back); the next `.connected` is diffed against them, so only the
///   sinks that did not come back disconnect. A server that never comes back leaves its last ports
///   listed. The microphone is reported unmuted at once.
///
/// Without the stream policy the engine's route decides, a model of one device for everyone; with
/// it (`ServerRouteFollower.lossPerStream`) the route is the server's default sink and a sink's
/// going away pauses only the sessions whose own streams played there (`AudibleSinks`).
public struct ServerRoutes: Sendable {
    /// The jacks the daemon reads itself.
    public let jacks: JackWatch
    /// Whether the daemon follows BlueZ itself (then Bluetooth sinks are left to it).
    public let followsBluetooth: Bool
    /// The ports reported connected now, by id.
    public private(set) var ports: [String: AudioPort] = [:]
    /// The microphone mute state reported last.
    public private(set) var micMuted = false
    /// The default sink's port, where the server sends new streams (nil: no default, or it is
    /// no port); kept across a server's disconnection, like the ports.
    public private(set) var serverDefault: String?

    public init(jacks: JackWatch = .none, followsBluetooth: Bool = false) {
        self.jacks = jacks
        self.followsBluetooth = followsBluetooth
    }

    /// What `change` means, and the state after it.
    public mutating func update(for change: InventoryChange) -> ServerRouteUpdate {
        var update = ServerRouteUpdate()
        if case .disconnected = change.kind {
            update.micMuted = reportMic(false)
            return update
        }
        let now = availablePorts(in: change.current)
        serverDefault = change.current.defaultSink.map(ServerSinkPort.id(ofSink:)).flatMap { now[$0]?.id }
        // A sink whose active port was unplugged lost its output even where the server switched
        // it to another port (headphones → speakers): it goes away and comes back as that port.
        let unplugged = change.kind == .updated ? unpluggedSinks(from: change.previous, to: change.current) : []
        update.disconnected = ports.keys.filter { now[$0] == nil || unplugged.contains($0) }.sorted()
        update.connected = Self.defaultLast(now.values.filter { ports[$0.id] != $0 || unplugged.contains($0.id) },
                                            default: change.current.defaultSink)
        ports = now
        switch change.kind {
        case .updated: update.picked = pick(from: change.previous, to: change.current)
        case .connected:
            update.defaultAtConnection = change.current.defaultSink.map(ServerSinkPort.id(ofSink:)).flatMap { now[$0]?.id }
        case .disconnected: break
        }
        update.micMuted = reportMic(Self.isMicMuted(change.current))
        return update
    }

    /// The ports of the sinks, reported before, whose active port then was plugged and is
    /// reported unplugged now — whether the server keeps it active (the sink is unavailable) or
    /// switched to another port. Sinks whose plug state the jacks or BlueZ report are left out.
    private func unpluggedSinks(from previous: AudioInventory, to current: AudioInventory) -> Set<String> {
        var unplugged: Set<String> = []
        for sink in current.devices.values where sink.id.kind == .sink && !jacks.covers(sink) {
            let id = ServerSinkPort.id(ofSink: sink.name)
            guard ports[id] != nil, let before = previous.device(.sink, named: sink.name),
                  let active = before.activePort,
                  let was = before.ports.first(where: { $0.name == active }), was.availability != .no,
                  sink.ports.first(where: { $0.name == active })?.availability == .no else { continue }
            unplugged.insert(id)
        }
        return unplugged
    }

    /// `ports` in a stable order with the default sink's last: automatic routing takes the last
    /// connected of equals, so without a pick the route lands where the server sends audio.
    private static func defaultLast(_ ports: [AudioPort], default sink: String?) -> [AudioPort] {
        let defaultID = sink.map(ServerSinkPort.id(ofSink:))
        return ports.sorted { ($0.id == defaultID ? 1 : 0, $0.id) < ($1.id == defaultID ? 1 : 0, $1.id) }
    }

    /// The port of the new default sink, when the default changed by a user's act.
    private func pick(from previous: AudioInventory, to current: AudioInventory) -> String? {
        guard let sink = current.defaultSink, sink != previous.defaultSink else { return nil }
        // No default before: the server settling (WirePlumber chooses one after start), not a user.
        guard let old = previous.defaultSink else { return nil }
        // The old default went away: the server's fallback, not the user's pick.
        guard current.device(.sink, named: old) != nil else { return nil }
        return ServerSinkPort.id(ofSink: sink)
    }

    /// The ports of the sinks available in `inventory`, by id.
    private func availablePorts(in inventory: AudioInventory) -> [String: AudioPort] {
        var ports: [String: AudioPort] = [:]
        for sink in inventory.devices.values where sink.id.kind == .sink && ServerSinkPort.isAvailable(sink, jacks: jacks) {
            if followsBluetooth && ServerSinkPort.isBluetooth(sink) { continue }
            let port = ServerSinkPort.port(for: sink, jacks: jacks)
            ports[port.id] = port
        }
        return ports
    }

    /// Whether the default source is a microphone and muted.
    static func isMicMuted(_ inventory: AudioInventory) -> Bool {
        guard let name = inventory.defaultSource, let source = inventory.device(.source, named: name),
              !source.isMonitor else { return false }
        return source.isMuted
    }

    /// `muted` if it differs from what was reported last, else nil.
    private mutating func reportMic(_ muted: Bool) -> Bool? {
        guard muted != micMuted else { return nil }
        micMuted = muted
        return muted
    }
}
