import AudioPolicyClient
import DBus
import Foundation
import Posix
#if canImport(Glibc)
import Glibc
#endif

/// `mprisd status`: asks the running daemon (`GetStatus`) and prints an aligned summary — coloured
/// only on a terminal, and never with `NO_COLOR` set — or the stable JSON document with `--json`.
/// It never starts a daemon: status reports what is, and "no daemon" is an answer.
enum StatusProgram {
    static func run(json: Bool) -> Int32 {
        let connection: Connection
        do {
            connection = try Connection(bus: .session)
        } catch {
            Output.error("mprisd status: no session bus (\(error.message))")
            return ExitStatus.failure
        }
        defer { connection.close() }
        guard PolicyClient.isDaemonAvailable(connection, timeout: .seconds(5)) else {
            Output.error("mprisd status: no policy daemon on the session bus (start 'mprisd' or install the user service)")
            return ExitStatus.unavailable
        }
        let text: String
        do {
            let reply = try connection.callAndWait(
                .methodCall(destination: AudioPolicyNames.busName, path: AudioPolicyNames.objectPath,
                            interface: AudioPolicyNames.interface, member: "GetStatus", body: []),
                timeout: .seconds(5))
            guard case .string(let document)? = reply.body.first else {
                Output.error("mprisd status: the daemon answered GetStatus with '\(reply.signature.code)'")
                return ExitStatus.failure
            }
            text = document
        } catch {
            Output.error("mprisd status: \(error)")
            return ExitStatus.failure
        }
        guard let status = try? PolicyStatus.decode(json: text) else {
            Output.error("mprisd status: the daemon's status document could not be read")
            return ExitStatus.failure
        }
        if json {
            Output.out(status.json())
        } else {
            Output.out(status.text(colour: isatty(1) == 1 && getenv("NO_COLOR") == nil))
        }
        return ExitStatus.success
    }
}
