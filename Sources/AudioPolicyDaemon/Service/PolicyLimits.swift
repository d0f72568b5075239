import AudioPolicyClient
import DBus

/// What one client may make the daemon hold. Every session and every string a client hands over
/// is kept in memory, copied into the status document and named in the log, so without a bound
/// one connection could grow the daemon — and everyone's `mprisd status` — without end.
///
/// Over a limit: `org.mprisd.AudioPolicy1.Error.LimitsExceeded`, nothing changed; the daemon
/// keeps serving everyone, the offender included.
enum PolicyLimits {
    /// Sessions one connection (unique name) may have registered at once.
    static let sessionsPerOwner = 64
    /// The longest string a client may hand over (a session's name, a port id), in bytes of UTF-8.
    static let textBytes = 256

    /// `text` (what the client called `what`) if it is within `textBytes`.
    static func check(_ text: String, _ what: String) throws(DBusError) -> String {
        guard text.utf8.count <= textBytes else {
            throw exceeded("\(what) is \(text.utf8.count) bytes long; at most \(textBytes) are allowed")
        }
        return text
    }

    static func exceeded(_ message: String) -> DBusError {
        DBusError(PolicyWire.limitsExceeded, message)
    }
}
