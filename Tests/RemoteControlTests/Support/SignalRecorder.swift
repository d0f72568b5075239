import DBus
import Synchronization
import TestSupport

/// Records the signals a client connection receives from the player, in arrival order.
final class SignalRecorder: Sendable {
    private let box = ValueBox<[Message]>([])
    private let subscriptions = Mutex<[SignalSubscription]>([])

    /// Subscribes `connection` to PropertiesChanged and Seeked on the MPRIS path, and to the bus's
    /// NameOwnerChanged for `name`.
    init(connection: Connection, name: String) async throws {
        let path = try ObjectPath("/org/mpris/MediaPlayer2")
        let rules = [
            MatchRule(interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged", path: path),
            MatchRule(interface: "org.mpris.MediaPlayer2.Player", member: "Seeked", path: path),
            MatchRule(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged",
                      arguments: [0: name]),
        ]
        for rule in rules {
            let subscription = try await connection.subscribe(rule) { [box] message in
                box.value.withLock { $0.append(message) }
            }
            subscriptions.withLock { $0.append(subscription) }
        }
    }

    var all: [Message] { box.value.withLock { $0 } }

    func clear() { box.value.withLock { $0.removeAll() } }

    /// The PropertiesChanged received for `interface`: changed values by name, invalidated names.
    func propertiesChanged(_ interface: String = "org.mpris.MediaPlayer2.Player")
        -> [(changed: [String: DBusValue], invalidated: [String])] {
        all.compactMap { message in
            guard message.member == "PropertiesChanged", message.body.count == 3,
                  case .string(interface) = message.body[0],
                  case .dictionary(_, _, let entries) = message.body[1],
                  case .array(_, let invalidated) = message.body[2] else { return nil }
            var changed: [String: DBusValue] = [:]
            for entry in entries {
                if case .string(let key) = entry.key, case .variant(let value) = entry.value { changed[key] = value }
            }
            return (changed, invalidated.compactMap { if case .string(let name) = $0 { name } else { nil } })
        }
    }

    /// The positions of the Seeked signals received.
    var seeked: [Int64] {
        all.compactMap { message in
            guard message.member == "Seeked", case .int64(let position)? = message.body.first else { return nil }
            return position
        }
    }

    deinit {
        for subscription in subscriptions.withLock({ $0 }) { subscription.cancel() }
    }
}
