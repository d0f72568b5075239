/// Whom the engine's own route decides device loss for when ports go away
/// (`PolicyEngine.disconnect(_:scope:)`, G-HEADPHONES-OUT).
///
/// The engine's route is a model of one device for everyone — right for a player that opens an
/// ALSA card, wrong on a desktop whose audio server gives every app's stream a sink of its own.
/// There the caller knows where a session is audible from its streams, reports its loss itself
/// (`reportDeviceLoss`), and the route must not pause it a second time or in its place.
public enum DeviceLossScope: Sendable, Hashable {
    /// Every session whose route used a removed port loses its device (no audio server).
    case everySession
    /// The caller places every session (its streams are on an audio server's sinks): the route
    /// decides for nobody.
    case noSession
    /// The caller places these sessions (`placed`); the route decides for every other one — a
    /// player with no known stream keeps the rule of its card's jacks and of BlueZ.
    case sessionsNotIn(Set<SessionID>)

    /// Whether the route decides device loss for `id`.
    func decidesByRoute(_ id: SessionID) -> Bool {
        switch self {
        case .everySession: return true
        case .noSession: return false
        case .sessionsNotIn(let placed): return !placed.contains(id)
        }
    }
}
