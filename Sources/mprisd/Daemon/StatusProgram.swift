import AudioPolicyClient
import DBus
import FoundationEssentials
import Posix
#if canImport(Glibc)
import Glibc
#endif

/// `mprisd status`: asks the running daemon (`GetStatus`) and prints an aligned summary — coloured
/// only on a terminal, and never with `NO_COLOR` set — or the stable JSON document with `--json`.
/// With no daemon running it asks the bus to start one (D-Bus activation), as every client does:
/// where the activation file is installed (the Debian package, `scripts/install-user.sh`) the
/// first `mprisd status` after login finds the daemon, not "no daemon"; where it is not, "no
/// daemon" is the answer.
enum StatusProgram {
    static func run(json: Bool) -> Int32 {
        let status: PolicyStatus
        switch fetch(command: "status", startingDaemon: true) {
        case .success(let fetched): status = fetched
        case .failure(let failure):
            Output.error(failure.message)
            return failure.exitStatus
        }
        if json {
            Output.out(status.json())
        } else {
            Output.out(status.text(colour: wantsColour))
        }
        return ExitStatus.success
    }

    /// Standard output is a terminal and `NO_COLOR` is not set.
    static var wantsColour: Bool { isatty(1) == 1 && getenv("NO_COLOR") == nil }

    /// Why the status could not be had: the message (`mprisd COMMAND: …`) and the exit status —
    /// `unavailable` (69) when no daemon runs.
    struct Failure: Error {
        let message: String
        let exitStatus: Int32
    }

    /// The daemon's status document (`GetStatus`), for `mprisd COMMAND`; with `startingDaemon`,
    /// a daemon the bus can activate is started first (`StartServiceByName`), otherwise only a
    /// running one is asked.
    static func fetch(command: String, startingDaemon: Bool = false) -> Result<PolicyStatus, Failure> {
        let connection: Connection
        do {
            connection = try Connection(bus: .session)
        } catch {
            return .failure(Failure(message: "mprisd \(command): no session bus (\(error.message))", exitStatus: ExitStatus.failure))
        }
        defer { connection.close() }
        let available = startingDaemon ? SessionBroker.startDaemonIfNeeded(connection)
                                       : PolicyClient.isDaemonAvailable(connection, timeout: .seconds(5))
        guard available else {
            return .failure(Failure(message: NoDaemon.message(command: command, connection),
                                    exitStatus: ExitStatus.unavailable))
        }
        let text: String
        do {
            let reply = try connection.callAndWait(
                .methodCall(destination: AudioPolicyNames.busName, path: AudioPolicyNames.objectPath,
                            interface: AudioPolicyNames.interface, member: "GetStatus", body: []),
                timeout: .seconds(5))
            guard case .string(let document)? = reply.body.first else {
                return .failure(Failure(message: "mprisd \(command): the daemon answered GetStatus with '\(reply.signature.code)'",
                                        exitStatus: ExitStatus.failure))
            }
            text = document
        } catch where error.name == DBusError.Name.noReply {
            return .failure(Failure(message: NoDaemon.notAnswering(command: command, seconds: 5, connection),
                                    exitStatus: ExitStatus.failure))
        } catch {
            return .failure(Failure(message: "mprisd \(command): \(error)", exitStatus: ExitStatus.failure))
        }
        guard let status = try? PolicyStatus.decode(json: text) else {
            return .failure(Failure(message: "mprisd \(command): the daemon's status document could not be read",
                                    exitStatus: ExitStatus.failure))
        }
        return .success(status)
    }
}
