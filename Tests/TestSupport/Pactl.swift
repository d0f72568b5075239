import Foundation

/// `pactl`, the PulseAudio command-line client (it speaks to pipewire-pulse as well): what tests
/// use to look at and change a server the way a user or a settings panel would.
public enum Pactl {
    public static let executable = "/usr/bin/pactl"

    /// Runs `pactl ARGUMENTS` with `environment` and returns its standard output; throws with its
    /// standard error when it fails (or is killed after `timeout`).
    @discardableResult
    public static func run(_ arguments: [String], environment: [String: String],
                           timeout: Duration = .seconds(10)) async throws -> String {
        let result = try await runProgram(executable, arguments, environment: environment, timeout: timeout)
        guard result.status == 0 else {
            throw TestSupportError("pactl \(arguments.joined(separator: " ")) failed (status \(result.status)): "
                                   + result.stderr.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return result.stdout
    }

    /// `pactl -f json list KIND` (`sink-inputs`, `source-outputs`, `sinks`, …): the objects, each
    /// a dictionary as pactl prints it (`index`, `properties`, `volume`, `mute`, …).
    public static func list(_ kind: String, environment: [String: String],
                            timeout: Duration = .seconds(10)) async throws -> [[String: Any]] {
        let text = try await run(["-f", "json", "list", kind], environment: environment, timeout: timeout)
        guard let objects = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] else {
            throw TestSupportError("pactl -f json list \(kind) printed no JSON array: \(text.prefix(500))")
        }
        return objects
    }
}
