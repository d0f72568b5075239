@testable import AudioPolicyClient
import DBus
import SessionCore
import XCTest

/// `manageStreams` in the configuration dictionary: written only when true, read strictly
/// (a wrong type names the key), absent means false — so older clients and daemons keep working.
final class PolicyWireManageStreamsTests: XCTestCase {
    func testManageStreamsRoundTripsAndDefaultsToFalse() throws {
        let configuration = SessionConfiguration(.playback)
        let managed = try PolicyWire.decodeConfiguration(
            PolicyWire.encodeConfiguration(configuration, name: "paplay", manageStreams: true))
        XCTAssertTrue(managed.manageStreams)
        XCTAssertEqual(managed.name, "paplay")
        let plain = try PolicyWire.decodeConfiguration(PolicyWire.encodeConfiguration(configuration, name: nil))
        XCTAssertFalse(plain.manageStreams)
    }

    func testAWrongTypeIsInvalidArgsNamingTheKey() {
        let value = PolicyWire.dictionary([("manageStreams", .string("yes"))])
        XCTAssertThrowsError(try PolicyWire.decodeConfiguration(value)) { error in
            XCTAssertEqual((error as? DBusError)?.name, DBusError.Name.invalidArgs)
            XCTAssertTrue((error as? DBusError)?.message.contains("manageStreams") ?? false, "\(error)")
        }
    }
}
