import AudioPolicyClient
import DBus
import SessionCore

/// The player arbiter's methods on the policy object (issue 16): `Players`, `PinPlayer`,
/// `UnpinPlayer`, `NextPlayer`, `Control`, `KeyPress` — what `mprisd players`, `mprisd player`,
/// `mprisd control` and `mprisd-control` call, one round trip each.
extension PolicyService {
    struct WeakArbiter {
        weak var arbiter: PlayerArbiter?
    }

    /// Serves `arbiter`'s choice on the policy object (until then those methods answer `NoPlayer`).
    public func follow(arbiter: PlayerArbiter) {
        playerArbiter.withLock { $0.arbiter = arbiter }
    }

    /// `org.mprisd.AudioPolicy1.Error.UnknownPlayer`: a pin on a name that is not a player, or an ignored one.
    static let unknownPlayerError = PolicyWire.errorPrefix + "UnknownPlayer"

    private func arbiter() throws(DBusError) -> PlayerArbiter {
        guard let arbiter = playerArbiter.withLock({ $0.arbiter }) else {
            throw DBusError(PlayerArbiter.noPlayerError, "the daemon does not follow players")
        }
        return arbiter
    }

    private static func dbusError(_ error: PlayerRanking.PinError) -> DBusError {
        switch error {
        case .noPlayers, .noPlayerInContext: DBusError(PlayerArbiter.noPlayerError, error.description)
        case .unknown, .ignored: DBusError(unknownPlayerError, error.description)
        }
    }

    func playerMethods() -> [Method] {
        [
            .immediate("Players", outputs: [Argument("json", .string)]) { [weak self] _ in
                guard let self else { throw Self.gone }
                return [.string(try self.arbiter().listing().json())]
            },
            .immediate("PinPlayer", inputs: [Argument("name", .string)], outputs: [Argument("busName", .string)]) { [weak self] call in
                guard let self else { throw Self.gone }
                let name = try PolicyLimits.check(try call.argument(0, as: String.self), "the player name")
                let arbiter = try self.arbiter()
                do throws(PlayerRanking.PinError) {
                    return [.string(try arbiter.pin(name).busName)]
                } catch {
                    throw Self.dbusError(error)
                }
            },
            .immediate("UnpinPlayer") { [weak self] _ in
                guard let self else { throw Self.gone }
                try self.arbiter().unpin()
                return []
            },
            .immediate("NextPlayer", outputs: [Argument("busName", .string)]) { [weak self] _ in
                guard let self else { throw Self.gone }
                let arbiter = try self.arbiter()
                do throws(PlayerRanking.PinError) {
                    return [.string(try arbiter.next().busName)]
                } catch {
                    throw Self.dbusError(error)
                }
            },
            .deferred("Control", inputs: [Argument("action", .string), Argument("value", .double)],
                      outputs: [Argument("done", .string)]) { [weak self] call, reply in
                do {
                    guard let self else { throw Self.gone }
                    let action = try PolicyLimits.check(try call.argument(0, as: String.self), "the action")
                    let value = try call.argument(1, as: Double.self)
                    guard let control = PlayerControl(action: action, value: value) else {
                        throw DBusError.invalidArgs("not a control: \(action) \(value) (actions: \(PlayerControl.actions.joined(separator: ", ")))")
                    }
                    try self.arbiter().control(control) { result in
                        reply(result.map { [.string($0)] }.mapError { $0 as any Error })
                    }
                } catch {
                    reply(.failure(error))
                }
            },
            .deferred("KeyPress", inputs: [Argument("action", .string)], outputs: [Argument("done", .string)]) { [weak self] call, reply in
                do {
                    guard let self else { throw Self.gone }
                    let action = try PolicyLimits.check(try call.argument(0, as: String.self), "the action")
                    guard let control = PlayerControl(action: action, value: 0), PlayerControl.keyActions.contains(action) else {
                        throw DBusError.invalidArgs("not a key: \(action) (keys: \(PlayerControl.keyActions.joined(separator: ", ")))")
                    }
                    try self.arbiter().keyPress(control) { result in
                        reply(result.map { [.string($0)] }.mapError { $0 as any Error })
                    }
                } catch {
                    reply(.failure(error))
                }
            },
        ]
    }
}
