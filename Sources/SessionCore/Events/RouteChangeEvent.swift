/// Why a session's route changed (field notes, "Route change event").
public enum RouteChangeReason: String, Sendable, Hashable, CaseIterable {
    case unknown
    /// A device appeared and audio moved there: keep playing (G-HEADPHONES-IN).
    case newDeviceAvailable
    /// A device of the route went away: media apps pause (G-HEADPHONES-OUT).
    case oldDeviceUnavailable
    /// The session's own category changed.
    case categoryChange
    /// The user picked a route: keep playing (G-ROUTE-PICK).
    case override
    case wakeFromSleep
    /// No port fits the category any more.
    case noSuitableRouteForCategory
    case routeConfigurationChange
}

/// A route change of one session: reason, the route before and the route now.
public struct RouteChangeEvent: Sendable, Hashable {
    /// Why the route changed; `oldDeviceUnavailable` means pause (G-HEADPHONES-OUT).
    public var reason: RouteChangeReason
    /// The session's route before the change.
    public var previousRoute: AudioRoute
    /// The session's route now.
    public var currentRoute: AudioRoute

    /// A route change of one session.
    public init(reason: RouteChangeReason, previousRoute: AudioRoute, currentRoute: AudioRoute) {
        self.reason = reason
        self.previousRoute = previousRoute
        self.currentRoute = currentRoute
    }
}
