import Foundation

extension TestBus {
    /// The environment of a program that uses `session` as its session bus and `system` as its
    /// system bus (libdbus, GDBus and sd-bus all read `DBUS_SESSION_BUS_ADDRESS` and
    /// `DBUS_SYSTEM_BUS_ADDRESS`).
    ///
    /// A bus given as nil is pointed at a socket that does not exist, so the program fails to
    /// reach it instead of reaching the machine's real bus.
    public static func environment(session: TestBus?, system: TestBus?,
                                   base: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        var environment = base
        environment["DBUS_SESSION_BUS_ADDRESS"] = session?.address ?? "unix:path=/nonexistent/mprisd-no-session-bus"
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = system?.address ?? "unix:path=/nonexistent/mprisd-no-system-bus"
        environment["DBUS_STARTER_ADDRESS"] = nil
        environment["DBUS_STARTER_BUS_TYPE"] = nil
        return environment
    }

    /// The unique names of the connections that process `pid` holds on this bus (asked with
    /// `busctl`, which reads each connection's credentials from the bus).
    public func connections(ofProcess pid: Int32) async throws -> [String] {
        let result = try await runProgram("/usr/bin/busctl", ["--address=\(address)", "--unique", "--json=short",
                                                               "--no-pager", "list"], timeout: .seconds(10))
        guard result.status == 0 else { throw TestSupportError("busctl list failed: \(result.stderr)") }
        guard let rows = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] else {
            throw TestSupportError("busctl list printed no JSON array: \(result.stdout)")
        }
        return rows.compactMap { row in
            guard let name = row["name"] as? String, (row["pid"] as? NSNumber)?.int32Value == pid else { return nil }
            return name
        }
    }
}
