import DBus
import Foundation
import XCTest

/// The base of every test that needs a bus: a fresh private `dbus-daemon` per test, connections
/// that are closed afterwards, and real D-Bus tools run against that bus.
open class BusTestCase: XCTestCase {
    public private(set) var bus: TestBus!
    private var connections: [Connection] = []

    override open func setUpWithError() throws {
        bus = try TestBus()
    }

    override open func tearDown() {
        for connection in connections { connection.close() }
        connections.removeAll()
        bus?.stop()
        bus = nil
    }

    /// A new connection to the test bus (closed in `tearDown`).
    public func connect() throws -> Connection {
        let connection = try Connection(address: bus.address)
        connections.append(connection)
        return connection
    }

    /// Runs `/usr/bin/NAME` against the test bus.
    public func tool(_ name: String, _ arguments: [String], timeout: Duration = .seconds(20)) async throws -> ProgramResult {
        try await runProgram("/usr/bin/\(name)", arguments, environment: bus.environment, timeout: timeout)
    }
}
