import DBus
import RemoteControl
import SessionCore
import Synchronization

/// A stand-in for `PlayerArbiter.onActiveChange` until the arbiter lands on this branch: the
/// active player is the MPRIS player that started playing last, among those playing now; none
/// when none plays. (The arbiter also keeps a paused player in its audio context, honours pins
/// and the ignore list.) The daemon uses it in one line, to be replaced by the arbiter's.
///
/// Follows every `org.mpris.MediaPlayer2.*` name (`ListNames`, then `NameOwnerChanged`) and each
/// player's `PlaybackStatus` (`Get`, then one `PropertiesChanged` match for all players), on the
/// connection's I/O thread; no timer.
public final class PlayingPlayerStandIn: Sendable {
    private let connection: Connection
    private let state = Mutex(State())

    private struct State {
        /// Bus name → owner, playing or not, and when it last started playing (a counter).
        var players: [String: (owner: String, playing: Bool, since: UInt64)] = [:]
        var clock: UInt64 = 0
        var current: ActivePlayer?
        var handlers: [UInt64: @Sendable (ActivePlayer?) -> Void] = [:]
        var nextToken: UInt64 = 0
        var subscriptions: [SignalSubscription] = []
    }

    static let playerctld = MPRISNames.busNamePrefix + "playerctld"

    public init(connection: Connection) {
        self.connection = connection
    }

    /// A stand-in following `connection`'s players from now on. It needs no stop: its matches go
    /// with the connection, and the headset cancels its own subscription.
    public static func started(connection: Connection) -> PlayingPlayerStandIn {
        let standIn = PlayingPlayerStandIn(connection: connection)
        standIn.start()
        return standIn
    }

    /// Starts following the session bus's players.
    public func start() {
        let names = MatchRule(sender: BusDaemon.name, interface: BusDaemon.interface, member: "NameOwnerChanged",
                              path: BusDaemon.path)
        let changes = MatchRule(interface: StandardInterfaceName.properties, member: "PropertiesChanged",
                                path: MPRISNames.objectPath)
        connection.subscribe(names, { [weak self] in self?.nameOwnerChanged($0) }) { [weak self] result in
            guard let self, case .success(let first) = result else { return }
            self.state.withLock { $0.subscriptions.append(first) }
            self.connection.subscribe(changes, { [weak self] in self?.propertiesChanged($0) }) { [weak self] result in
                guard let self, case .success(let second) = result else { return }
                self.state.withLock { $0.subscriptions.append(second) }
                self.listPlayers()
            }
        }
    }

    public func stop() {
        let subscriptions = state.withLock { state in
            defer { state.subscriptions = []; state.handlers = [:] }
            return state.subscriptions
        }
        for subscription in subscriptions { subscription.cancel() }
    }

    /// Calls `handler` with the active player now, then on each change.
    public func onActiveChange(_ handler: @escaping @Sendable (ActivePlayer?) -> Void) -> EventSubscription {
        let (token, current) = state.withLock { state in
            state.nextToken += 1
            state.handlers[state.nextToken] = handler
            return (state.nextToken, state.current)
        }
        handler(current)
        return EventSubscription { [weak self] in _ = self?.state.withLock { $0.handlers.removeValue(forKey: token) } }
    }

    private func listPlayers() {
        let call = Message.methodCall(destination: BusDaemon.name, path: BusDaemon.path, interface: BusDaemon.interface,
                                      member: "ListNames")
        connection.call(call) { [weak self] reply in
            guard let self, case .success(let message) = reply, case .array(_, let names)? = message.body.first else { return }
            for case .string(let name) in names where name.hasPrefix(MPRISNames.busNamePrefix) {
                let owner = Message.methodCall(destination: BusDaemon.name, path: BusDaemon.path,
                                               interface: BusDaemon.interface, member: "GetNameOwner", body: [.string(name)])
                self.connection.call(owner) { [weak self] reply in
                    guard case .success(let message) = reply, case .string(let unique)? = message.body.first else { return }
                    self?.appeared(name, owner: unique)
                }
            }
        }
    }

    private func nameOwnerChanged(_ signal: Message) {
        guard signal.body.count == 3, case .string(let name) = signal.body[0], name.hasPrefix(MPRISNames.busNamePrefix),
              case .string(let owner) = signal.body[2] else { return }
        if owner.isEmpty {
            update { $0.players[name] = nil }
        } else {
            appeared(name, owner: owner)
        }
    }

    private func appeared(_ name: String, owner: String) {
        update { $0.players[name] = (owner, false, 0) }
        let get = Message.methodCall(destination: owner, path: MPRISNames.objectPath,
                                     interface: StandardInterfaceName.properties, member: "Get",
                                     body: [.string(MPRISNames.playerInterface), .string("PlaybackStatus")])
        connection.call(get) { [weak self] reply in
            guard case .success(let message) = reply, case .variant(.string(let status))? = message.body.first else { return }
            self?.statusChanged(owner: owner, to: status)
        }
    }

    private func propertiesChanged(_ signal: Message) {
        guard let sender = signal.sender, signal.body.count >= 2, case .string(MPRISNames.playerInterface) = signal.body[0],
              case .dictionary(_, _, let entries) = signal.body[1],
              let entry = entries.first(where: { $0.key == .string("PlaybackStatus") }),
              case .variant(.string(let status)) = entry.value else { return }
        statusChanged(owner: sender, to: status)
    }

    private func statusChanged(owner: String, to status: String) {
        update { state in
            for (name, player) in state.players where player.owner == owner {
                let playing = status == "Playing"
                guard playing != player.playing else { continue }
                state.clock += 1
                state.players[name] = (owner, playing, playing ? state.clock : player.since)
            }
        }
    }

    /// Applies `change`, recomputes the active player and tells the handlers if it changed.
    private func update(_ change: (inout State) -> Void) {
        let (changed, handlers) = state.withLock { state -> (ActivePlayer??, [@Sendable (ActivePlayer?) -> Void]) in
            change(&state)
            // playerctld mirrors another player's status: never the one to control.
            let best = state.players.filter { $0.value.playing && $0.key != Self.playerctld }
                .max { $0.value.since < $1.value.since }
            let active = best.map { ActivePlayer(busName: $0.key, owner: $0.value.owner) }
            guard active != state.current else { return (nil, []) }
            state.current = active
            return (.some(active), Array(state.handlers.values))
        }
        if let changed { for handler in handlers { handler(changed) } }
    }
}
