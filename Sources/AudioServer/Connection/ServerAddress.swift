import FoundationEssentials
import Posix

/// Where the audio server is, found the way every libpulse client finds it: `PULSE_SERVER`, else
/// `$XDG_RUNTIME_DIR/pulse/native`.
public enum ServerAddress: Sendable, Hashable, CustomStringConvertible {
    /// A local socket: connected to only once it exists; its directory is watched with inotify.
    case socket(path: String)
    /// A `PULSE_SERVER` value that is not a local socket (`tcp:host:4713`): tried at start only.
    case remote(String)
    /// Nowhere to look (no `PULSE_SERVER`, no `XDG_RUNTIME_DIR`).
    case unknown(reason: String)

    /// The address from `environment`.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> ServerAddress {
        if let server = environment["PULSE_SERVER"]?.trimmingWhitespace(), !server.isEmpty {
            // The first of a space-separated list; `{machine-id}` prefixes name the host it is for.
            var first = Substring(server.split(separator: " ").first ?? "")
            if first.hasPrefix("{"), let end = first.firstIndex(of: "}") { first = first[first.index(after: end)...] }
            if first.hasPrefix("unix:") { return .socket(path: String(first.dropFirst(5))) }
            if first.hasPrefix("/") { return .socket(path: String(first)) }
            return .remote(String(first))
        }
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else {
            return .unknown(reason: "neither PULSE_SERVER nor XDG_RUNTIME_DIR is set")
        }
        return .socket(path: runtime + "/pulse/native")
    }

    public var description: String {
        switch self {
        case .socket(let path): path
        case .remote(let address): address
        case .unknown(let reason): "unknown (\(reason))"
        }
    }
}
