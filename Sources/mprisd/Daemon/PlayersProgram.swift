import AudioPolicyClient
import DBus
import Posix

/// `mprisd players`, `mprisd player pin|unpin|next` and `mprisd control`: one call each to the
/// running daemon's arbiter (issue 16). Never starts a daemon, and asks the bus nothing first —
/// a key binding waits for one round trip only; no daemon is told by the call's own error.
enum PlayersProgram {
    static func players(json: Bool) -> Int32 {
        call("players", "Players") { reply in
            guard case .string(let text)? = reply.first, let listing = try? PlayerListing.decode(json: text) else {
                Output.error("mprisd players: the daemon's answer could not be read")
                return ExitStatus.failure
            }
            Output.out(json ? listing.json() : listing.text())
            return ExitStatus.success
        }
    }

    static func pin(_ name: String) -> Int32 {
        call("player pin", "PinPlayer", [.string(name)]) { reply in
            if case .string(let chosen)? = reply.first { Output.out("pinned \(chosen)") }
            return ExitStatus.success
        }
    }

    static func unpin() -> Int32 {
        call("player unpin", "UnpinPlayer") { _ in
            Output.out("unpinned: the active player is chosen again")
            return ExitStatus.success
        }
    }

    static func next() -> Int32 {
        call("player next", "NextPlayer") { reply in
            if case .string(let chosen)? = reply.first { Output.out("pinned \(chosen)") }
            return ExitStatus.success
        }
    }

    /// `Control(action, value)`; quiet on success unless `verbose` (a key binding's output goes
    /// nowhere), one line on standard error otherwise.
    static func control(_ action: String, value: Double, verbose: Bool) -> Int32 {
        call("control", "Control", [.string(action), .double(value)], timeout: .seconds(1)) { reply in
            if verbose, case .string(let done)? = reply.first { Output.out(done) }
            return ExitStatus.success
        }
    }

    /// One call to the policy object; `done` turns its reply into the exit status. No player:
    /// exit 1 with the daemon's reason; no daemon: exit 69.
    /// `timeout`: 1 s for a key press (`control`), which the daemon's own bound on the player
    /// fits within; 5 s for the rest, which only the daemon answers.
    private static func call(_ command: String, _ member: String, _ body: [DBusValue] = [],
                             timeout: Duration = .seconds(5), done: ([DBusValue]) -> Int32) -> Int32 {
        let connection: Connection
        do {
            connection = try Connection(bus: .session)
        } catch {
            Output.error("mprisd \(command): no session bus (\(error.message))")
            return ExitStatus.failure
        }
        defer { connection.close() }
        let reply: Message
        do {
            reply = try connection.callAndWait(
                .methodCall(destination: AudioPolicyNames.busName, path: AudioPolicyNames.objectPath,
                            interface: AudioPolicyNames.interface, member: member, body: body),
                timeout: timeout)
        } catch {
            switch error.name {
            case DBusError.Name.noReply:
                Output.error(NoDaemon.notAnswering(command: command, seconds: timeout.components.seconds, connection))
                return ExitStatus.failure
            case DBusError.Name.serviceUnknown, DBusError.Name.nameHasNoOwner:
                Output.error(NoDaemon.message(command: command, connection))
                return ExitStatus.unavailable
            case DBusError.Name.unknownMethod:
                Output.error("mprisd \(command): the running daemon is too old for this command (restart it)")
                return ExitStatus.unavailable
            default:
                Output.error("mprisd \(command): \(error.message)")
                return ExitStatus.failure
            }
        }
        return done(reply.body)
    }
}
