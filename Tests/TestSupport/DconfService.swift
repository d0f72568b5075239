import DBus
import Foundation

/// The real dconf-service (GNOME's settings store) on a private session bus, with its own user
/// database (`$XDG_CONFIG_HOME/dconf/user`) and change files (`$XDG_RUNTIME_DIR/dconf`), and
/// the real `gsettings` to read and flip keys as the desktop's own Settings would.
public final class DconfService: Sendable {
    public static let executable = "/usr/libexec/dconf-service"
    public static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: executable) && FileManager.default.isExecutableFile(atPath: "/usr/bin/gsettings")
    }

    /// The environment dconf, gsettings and every client of it share.
    public let environment: [String: String]
    private let process: BackgroundProcess

    private init(environment: [String: String], process: BackgroundProcess) {
        self.environment = environment
        self.process = process
    }

    /// Starts dconf-service with `environment` (the bus, XDG_CONFIG_HOME, XDG_RUNTIME_DIR) and
    /// returns once it owns `ca.desrt.dconf`.
    public static func start(bus: TestBus, environment: [String: String], timeout: Duration = .seconds(10)) async throws -> DconfService {
        var environment = environment
        environment["GSETTINGS_BACKEND"] = "dconf"
        let process = try BackgroundProcess(name: "dconf-service", executable, [], environment: environment)
        let connection = try Connection(address: bus.address)
        defer { connection.close() }
        do {
            let owned = EventRecord<Bool>()
            let watch = try await connection.watchNameOwner("ca.desrt.dconf") { owner in
                if owner != nil { owned.append(true) }
            }
            defer { watch.cancel() }
            try await owned.wait(for: "ca.desrt.dconf to get an owner", timeout: timeout) { $0.first }
        } catch {
            process.stop()
            throw TestSupportError("\(error)\ndconf-service: \(process.standardError)")
        }
        return DconfService(environment: environment, process: process)
    }

    /// `gsettings ARGUMENTS` (trimmed standard output); throws when it fails.
    @discardableResult
    public func gsettings(_ arguments: String...) async throws -> String {
        let result = try await runProgram("/usr/bin/gsettings", arguments, environment: environment)
        guard result.status == 0 else { throw TestSupportError("gsettings \(arguments): \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `dconf ARGUMENTS` (dconf-cli: `dump /` for everything a database sets); throws when it fails.
    @discardableResult
    public func dconf(_ arguments: String...) async throws -> String {
        let result = try await runProgram("/usr/bin/dconf", arguments, environment: environment)
        guard result.status == 0 else { throw TestSupportError("dconf \(arguments): \(result.stderr)") }
        return result.stdout
    }

    public func stop() {
        process.stop()
    }

    deinit {
        stop()
    }
}
