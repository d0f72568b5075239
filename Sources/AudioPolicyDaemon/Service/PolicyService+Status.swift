import AudioPolicyClient
import DBus
import FoundationEssentials
import SessionCore

/// `GetStatus`: the document `mprisd status --json` prints.
extension PolicyService {
    /// The status from the engine, the served sessions and the followed foreign players,
    /// completed by `statusExtras`.
    public func status() -> PolicyStatus {
        let conditions = system.conditions
        let sessions = state.withLock { Array($0.sessions.values) }.sorted { $0.number < $1.number }
        func port(_ port: AudioPort) -> PolicyStatus.Port {
            PolicyStatus.Port(id: port.id, name: port.name, type: port.type.rawValue)
        }
        let playback = RouteSelection.route(for: SessionConfiguration(.playback), in: conditions)
        var status = PolicyStatus(
            silentMode: conditions.isSilentMode, locked: conditions.isLocked,
            outputVolume: conditions.knownOutputVolume,
            route: PolicyStatus.Route(override: conditions.routeOverride, outputs: playback.outputs.map(port),
                                      available: conditions.availableOutputs.map(port)),
            sessions: sessions.map(\.status))
        status.players = followedPlayers?.players ?? []
        status.activePlayer = playerArbiter.withLock { $0.arbiter }?.activeStatus()
        statusExtras(&status)
        return status
    }

    /// `status()` as JSON with sorted keys.
    func statusJSON() throws(DBusError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return String(decoding: try encoder.encode(status()), as: UTF8.self)
        } catch {
            throw DBusError.failed("the status could not be encoded: \(error)")
        }
    }
}
