import DBus
import TestSupport
import XCTest

extension BusTestCase {
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
