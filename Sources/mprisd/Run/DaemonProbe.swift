import AudioPolicyClient
import DBus

/// A quick look whether the policy daemon answers at all, before `mprisd run` registers with it
/// and waits the client's full timeout per call: a daemon that owns its name but is frozen
/// (stopped, stuck) must not hold up the user's program for long. `Peer.Ping`, which libdbus
/// answers in any process that still dispatches messages.
enum DaemonProbe {
    static let patience: Duration = .seconds(1)

    /// True when the daemon answered, or when it is simply absent (no owner: the normal path
    /// then says so); false only when it owns the name and stays silent.
    static func answers(_ connection: Connection) -> Bool {
        do {
            _ = try connection.callAndWait(
                .methodCall(destination: AudioPolicyNames.busName, path: AudioPolicyNames.objectPath,
                            interface: StandardInterfaceName.peer,
                            member: "Ping", body: []),
                timeout: patience)
            return true
        } catch {
            return error.name != DBusError.Name.noReply
        }
    }
}
