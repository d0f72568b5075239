import DBus

/// The values of one property of an MPRIS player's `org.mpris.MediaPlayer2.Player` announced in
/// its `PropertiesChanged`, as a given connection receives them: on a component's own connection,
/// "announced" means the component has been handed the same message (after a `roundTrip`, it
/// has handled it). For players that announce late (mpv-mpris batches its signals, 100 ms).
public final class AnnouncedProperty: Sendable {
    public let name: String
    private let box = ValueBox<[DBusValue]>([])
    private let subscription = ValueBox<SignalSubscription?>(nil)

    private init(name: String) {
        self.name = name
    }

    /// Starts recording `name` as `player` announces it to `connection` (from now on: the match is
    /// on the bus when this returns).
    public static func watch(_ name: String, of player: some MPRISTestPlayer,
                             on connection: Connection) async throws -> AnnouncedProperty {
        let announced = AnnouncedProperty(name: name)
        let rule = MatchRule(sender: player.uniqueName, interface: "org.freedesktop.DBus.Properties",
                             member: "PropertiesChanged", path: MPRISTestPlayers.path)
        let box = announced.box
        let subscription = try await connection.subscribe(rule) { message in
            guard message.body.count == 3, case .string(MPRISTestPlayers.interface) = message.body[0],
                  case .dictionary(_, _, let entries) = message.body[1] else { return }
            for entry in entries where entry.key == .string(name) {
                if case .variant(let value) = entry.value { box.value.withLock { $0.append(value) } }
            }
        }
        announced.subscription.value.withLock { $0 = subscription }
        return announced
    }

    /// The values announced so far, in order.
    public var values: [DBusValue] { box.current }

    /// Waits until `value` has been announced; false after `timeout`.
    public func waitFor(_ value: DBusValue, timeout: Duration = .seconds(5)) async -> Bool {
        await eventually(timeout: timeout) { values.contains(value) }
    }

    deinit {
        subscription.current?.cancel()
    }
}
