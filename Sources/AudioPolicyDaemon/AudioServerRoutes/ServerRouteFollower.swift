import AudioServer
import SessionCore
import Synchronization
import SystemContext

/// Applies `ServerRoutes` to the daemon's `SystemRouting` and `AudioSystem`: each
/// `InventoryChange` of the `AudioServerLink` becomes port disconnections, connections, a route
/// pick and the microphone mute, in that order (see `ServerRouteUpdate`).
///
/// Called on the link's thread; the lock keeps one change's calls together even if a second
/// caller appeared, so the engine sees changes in the server's order.
public final class ServerRouteFollower: Sendable {
    private let routing: SystemRouting
    private let log: @Sendable (String) -> Void
    private let routes: Mutex<ServerRoutes>
    /// Whether the caller decides device loss from the streams (`StreamPolicy`): a sink going
    /// away then pauses only the sessions that played on it, not whoever the engine's single
    /// route would name; and without a pick the route is the server's default sink (where new
    /// streams go), never merely the newest sink; and its Bluetooth sinks are ports too.
    private let lossPerStream: Bool

    public init(routing: SystemRouting, jacks: JackWatch, followsBluetooth: Bool, lossPerStream: Bool = false,
                log: @escaping @Sendable (String) -> Void) {
        self.routing = routing
        self.log = log
        self.lossPerStream = lossPerStream
        // Per stream, the server's Bluetooth sinks are ports like any other: their going away
        // pauses the sessions whose streams played there (BlueZ's report of the same device then
        // pauses only the sessions no stream places). Else BlueZ alone reports them.
        routes = Mutex(ServerRoutes(jacks: jacks, followsBluetooth: followsBluetooth && !lossPerStream))
    }

    /// The ports of the server reported connected now (for tests and status).
    public var ports: [AudioPort] {
        routes.withLock { $0.ports.values.sorted { $0.id < $1.id } }
    }

    /// Follows one change of the server's inventory; returns the ports (sinks) that went away
    /// in it, for the per-stream decision of who played there.
    @discardableResult
    public func follow(_ change: InventoryChange) -> [AudioPort] {
        routes.withLock { routes in
            let before = routes.ports
            let update = routes.update(for: change)
            apply(update, serverDefault: routes.serverDefault)
            return update.disconnected.compactMap { before[$0] }
        }
    }

    private func apply(_ update: ServerRouteUpdate, serverDefault: String?) {
        if !update.disconnected.isEmpty {
            log("audio server: gone \(update.disconnected.joined(separator: ", "))")
            // Per stream, the stream policy names the sessions that played there (`AudibleSinks`),
            // in the order of the server's events: the route decides for nobody.
            routing.portsDisconnected(update.disconnected, scope: lossPerStream ? .noSession : .everySession)
        }
        if !update.connected.isEmpty {
            log("audio server: output \(update.connected.map { "\($0.id) (\($0.type))" }.joined(separator: ", "))")
            routing.portsConnected(update.connected)
        }
        if lossPerStream {
            // The engine's route only says where new streams go: the server's default sink.
            routing.serverDefaultChanged(serverDefault)
        } else if let candidate = update.defaultAtConnection {
            followDefaultAtConnection(candidate)
        }
        if let picked = update.picked {
            log("audio server: default output \(picked) (the user's pick)")
            routing.routePicked(picked)
        }
        if let muted = update.micMuted {
            log("audio server: microphone \(muted ? "muted" : "unmuted")")
            routing.system.setBuiltInMicMuted(muted)
        }
    }

    /// At connection, with no pick: if automatic routing would send a player elsewhere than the
    /// server's default sink (a speaker-typed default under an HDMI or USB sink that outranks it),
    /// the default becomes the pick — else the engine would pause players when a device they never
    /// played on goes away.
    private func followDefaultAtConnection(_ port: String) {
        guard routing.pick == nil else { return }
        let automatic = RouteSelection.route(for: SessionConfiguration(.playback), in: routing.system.conditions)
        guard automatic.outputs.first?.id != port else { return }
        log("audio server: default output \(port) (routing would land on \(automatic.outputs.first?.id ?? "nothing"))")
        routing.routePicked(port)
    }
}
