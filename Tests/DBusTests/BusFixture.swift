import DBus
import TestSupport
import XCTest

/// A private bus plus helpers shared by the D-Bus tests.
///
/// Each test gets a fresh `dbus-daemon`; connections opened through `connect()` are closed
/// and the daemon is stopped in `tearDown`.
class BusTestCase: XCTestCase {
    private(set) var bus: TestBus!
    private var connections: [Connection] = []

    override func setUpWithError() throws {
        bus = try TestBus()
    }

    override func tearDown() {
        for connection in connections { connection.close() }
        connections.removeAll()
        bus?.stop()
        bus = nil
    }

    /// A new connection to the test bus.
    func connect() throws -> Connection {
        let connection = try Connection(address: bus.address)
        connections.append(connection)
        return connection
    }

    /// Runs a real D-Bus tool against the test bus (`/usr/bin/NAME`).
    func tool(_ name: String, _ arguments: [String]) async throws -> ProgramResult {
        try await runProgram("/usr/bin/\(name)", arguments, environment: bus.environment)
    }

    /// A service connection owning `name`, exporting `interfaces` at `path`.
    func service(_ name: String, path: String = "/org/mprisd/Test",
                 _ interfaces: [Interface]) async throws -> (Connection, ExportedObject) {
        let connection = try connect()
        let object = try connection.export(try ObjectPath(path), interfaces: interfaces)
        let reply = try await connection.requestName(name, flags: .doNotQueue)
        XCTAssertEqual(reply, .primaryOwner)
        return (connection, object)
    }
}
