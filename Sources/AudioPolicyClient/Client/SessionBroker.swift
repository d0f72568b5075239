import DBus
import SessionCore

/// Where an app's audio session lives: with the policy daemon when one is on the bus — or can be
/// started by D-Bus activation — so that sessions of every process arbitrate each other; otherwise
/// in an in-process engine, the embedded default (the app then follows the same rules alone).
public enum SessionBroker {
    /// The session and, when it is the daemon's, the client that must stay open as long as it.
    public struct Placement: Sendable {
        public let session: any AudioSessionHandle
        /// Nil for an in-process session.
        public let client: PolicyClient?
        /// Why the daemon is not used, for a notice (nil when it is, or when none exists).
        public let notice: String?
    }

    /// Registers `configuration` (named `name` in `mprisd status`) with the daemon on `connection`,
    /// starting it by activation if needed; on any failure makes the session in `fallback`.
    /// Blocks for a few round trips: never on a connection's I/O thread.
    public static func makeSession(on connection: Connection?, configuration: SessionConfiguration,
                                   name: String, fallback: AudioSystem) throws(SessionError) -> Placement {
        let remote = connection.map { daemonSession(on: $0, configuration: configuration, name: name) }
        if let remote, case .success(let placement) = remote { return placement }
        let notice: String? = if let remote, case .failure(let why) = remote { why.notice } else { nil }
        return Placement(session: try fallback.makeSession(configuration), client: nil, notice: notice)
    }

    /// Why no daemon session was made: none runs (`notice` nil), or one failed (said in `notice`).
    public struct NoDaemon: Error, Sendable {
        public let notice: String?
    }

    /// The daemon's session alone, for an app that makes its in-process one itself: registers
    /// `configuration` with the daemon on `connection`, starting it by activation if needed.
    public static func daemonSession(on connection: Connection, configuration: SessionConfiguration,
                                     name: String) -> Result<Placement, NoDaemon> {
        guard startDaemonIfNeeded(connection) else { return .failure(NoDaemon(notice: nil)) }
        let client: PolicyClient
        do {
            client = try PolicyClient(connection: connection)
        } catch {
            return .failure(NoDaemon(notice: "the policy daemon is not reachable (\(error)); deciding in-process"))
        }
        do {
            let session = try client.register(configuration, name: name)
            return .success(Placement(session: session, client: client, notice: nil))
        } catch {
            client.close()
            return .failure(NoDaemon(notice: "the policy daemon refused the session (\(error)); deciding in-process"))
        }
    }

    /// Whether a daemon owns `org.mprisd.AudioPolicy`, after asking the bus to start one by
    /// activation when none does (`StartServiceByName` returns once the name is owned, or fails at
    /// once when no service file names it).
    public static func startDaemonIfNeeded(_ connection: Connection) -> Bool {
        if PolicyClient.isDaemonAvailable(connection, timeout: .seconds(2)) { return true }
        guard let reply = try? connection.callAndWait(
                .methodCall(destination: BusDaemon.name, path: BusDaemon.path, interface: BusDaemon.interface,
                            member: "StartServiceByName", body: [.string(AudioPolicyNames.busName), .uint32(0)]),
                timeout: .seconds(25)),
              case .uint32(let result)? = reply.body.first else { return false }
        return result == 1 || result == 2  // DBUS_START_REPLY_SUCCESS, DBUS_START_REPLY_ALREADY_RUNNING
    }
}
