import DBus
import Foundation
import TestSupport
import XCTest

/// The real policy daemon (`mprisd` with no subcommand) and `mprisd run` on the test bus, with the
/// test's own XDG directories and no system bus, plus the daemon's status document.
extension PlayerTestCase {
    static let policyName = "org.mprisd.AudioPolicy"
    static let policyPath = "/org/mprisd/AudioPolicy"

    var daemonEnvironment: [String: String] {
        TestBus.environment(session: bus, system: nil).merging(userDirectories) { _, mine in mine }
    }

    /// Starts the daemon and waits until it owns its name.
    func startDaemon(watcher: Connection) async throws -> BackgroundProgram {
        let daemon = try BackgroundProgram(Products.path("mprisd"), [], environment: daemonEnvironment)
        let owned = await eventually(timeout: .seconds(10)) {
            (try? await watcher.listNames().contains(Self.policyName)) ?? false
        }
        guard owned else { throw TestSupportError("the daemon took no name: \(daemon.stderr)") }
        return daemon
    }

    /// `mprisd run ARGS` in the background.
    func runInSession(_ arguments: [String]) throws -> BackgroundProgram {
        try BackgroundProgram(Products.path("mprisd"), ["run"] + arguments, environment: daemonEnvironment)
    }

    /// `GetStatus`: the JSON text (keys sorted, so two equal states give equal texts).
    func policyStatusText(_ connection: Connection, timeout: Duration = .seconds(5)) async throws -> String {
        let reply = try await connection.call(destination: Self.policyName, path: try ObjectPath(Self.policyPath),
                                              interface: "org.mprisd.AudioPolicy1", member: "GetStatus",
                                              timeout: timeout)
        guard case .string(let json)? = reply.first else { throw TestSupportError("GetStatus answered \(reply)") }
        return json
    }

    /// `GetStatus`, decoded as JSON.
    func policyStatus(_ connection: Connection, timeout: Duration = .seconds(5)) async throws -> [String: Any] {
        let json = try await policyStatusText(connection, timeout: timeout)
        guard let document = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
            throw TestSupportError("GetStatus answered \(json)")
        }
        return document
    }

    /// The status entries of the registered sessions.
    func sessions(_ connection: Connection) async throws -> [[String: Any]] {
        try await policyStatus(connection)["sessions"] as? [[String: Any]] ?? []
    }

    /// The owner (unique name) of `name`, nil when none.
    func owner(of name: String, on connection: Connection) async -> String? {
        let reply = try? await connection.call(destination: "org.freedesktop.DBus", path: try ObjectPath("/org/freedesktop/DBus"),
                                               interface: "org.freedesktop.DBus", member: "GetNameOwner", [.string(name)])
        if case .string(let owner)? = reply?.first { return owner }
        return nil
    }
}
