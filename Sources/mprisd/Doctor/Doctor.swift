import AudioPolicyClient
import DBus

/// What `mprisd doctor` reads the machine with: the session bus (required), the system bus (where
/// logind and bluetoothd live; nil when there is none) and — once the daemon answered — its status.
/// Every question is a bus call with a short timeout or a read of `/proc`: the doctor starts
/// nothing, changes nothing and never waits long on a program that does not answer.
struct Doctor {
    let session: Connection
    let system: Connection?
    /// A systemd user manager is on the session bus (asked once: several checks need it).
    private(set) var hasSystemd = false
    /// The session bus can start the daemon (its activation file is installed).
    private(set) var isActivatable = false

    init(session: Connection, system: Connection?) {
        self.session = session
        self.system = system
        hasSystemd = hasOwner(Self.systemdName, on: session) == true
        isActivatable = names("ListActivatableNames").contains(AudioPolicyNames.busName)
    }

    /// How long a player or service may take to answer one call.
    static let patience: Duration = .seconds(1)

    /// Whether `name` has an owner on `connection` (`NameHasOwner`); nil when the bus did not say.
    func hasOwner(_ name: String, on connection: Connection) -> Bool? {
        let call = Message.methodCall(destination: BusDaemon.name, path: BusDaemon.path, interface: BusDaemon.interface,
                                      member: "NameHasOwner", body: [.string(name)])
        guard let reply = try? connection.callAndWait(call, timeout: .seconds(2)),
              case .boolean(let owned)? = reply.body.first else { return nil }
        return owned
    }

    /// The strings a bus method answers with an `as` (`ListNames`, `ListActivatableNames`).
    func names(_ member: String) -> [String] {
        let call = Message.methodCall(destination: BusDaemon.name, path: BusDaemon.path, interface: BusDaemon.interface,
                                      member: member)
        guard let reply = try? session.callAndWait(call, timeout: .seconds(2)),
              case .array(_, let values)? = reply.body.first else { return [] }
        return values.compactMap { if case .string(let name) = $0 { name } else { nil } }
    }

    /// The pid the bus knows for `name`'s owner (`GetConnectionUnixProcessID`).
    func processID(of name: String) -> UInt32? {
        let call = Message.methodCall(destination: BusDaemon.name, path: BusDaemon.path, interface: BusDaemon.interface,
                                      member: "GetConnectionUnixProcessID", body: [.string(name)])
        guard let reply = try? session.callAndWait(call, timeout: .seconds(2)),
              case .uint32(let pid)? = reply.body.first else { return nil }
        return pid
    }

    /// Every check, in the order a person would fix them: the daemon first (most others read its
    /// status), then what starts it, what it reaches, and what competes with it.
    func examine() -> DoctorReport {
        var report = DoctorReport()
        let status = checkDaemon(&report)
        checkAutostart(&report)
        if let status { checkStatus(status, &report) }
        checkMediaKeys(&report)
        checkMPRISProxy(&report)
        checkSystemServices(&report)
        checkPlayers(&report)
        return report
    }
}
