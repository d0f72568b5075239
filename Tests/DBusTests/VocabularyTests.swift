import DBus
import TestSupport
import XCTest

/// The public names of the binding: what an app addresses the bus daemon and standard interfaces
/// with, and object paths written as literals.
final class VocabularyTests: BusTestCase {
    func testBusDaemonNamesReachTheRealDaemon() async throws {
        let connection = try connect()
        let reply = try await connection.call(.methodCall(destination: BusDaemon.name, path: BusDaemon.path,
                                                          interface: BusDaemon.interface, member: "GetNameOwner",
                                                          body: [.string(BusDaemon.name)]))
        XCTAssertEqual(reply.body, [.string(BusDaemon.name)])
        let ping = try await connection.call(.methodCall(destination: BusDaemon.name, path: BusDaemon.path,
                                                         interface: StandardInterfaceName.peer, member: "Ping"))
        XCTAssertEqual(ping.body, [])
    }

    func testTrustedLiteralIsTheSamePathAsAValidatedOne() throws {
        XCTAssertEqual(ObjectPath(trusted: "/org/mpris/MediaPlayer2"), try ObjectPath("/org/mpris/MediaPlayer2"))
        XCTAssertEqual(ObjectPath(trusted: "/"), .root)
    }

    func testParentGoesOneElementUp() throws {
        XCTAssertEqual(try ObjectPath("/org/bluez/hci0/dev_00").parent, try ObjectPath("/org/bluez/hci0"))
        XCTAssertEqual(try ObjectPath("/org").parent, .root)
        XCTAssertNil(ObjectPath.root.parent)
    }
}
