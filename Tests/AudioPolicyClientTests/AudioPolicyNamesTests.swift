import AudioPolicyClient
import DBus
import XCTest

final class AudioPolicyNamesTests: XCTestCase {
    func testNamesAreValidOnTheBus() throws {
        XCTAssertTrue(NameSyntax.isBusName(AudioPolicyNames.busName))
        XCTAssertTrue(NameSyntax.isInterfaceName(AudioPolicyNames.interface))
        XCTAssertTrue(NameSyntax.isInterfaceName(AudioPolicyNames.sessionInterface))
        XCTAssertEqual(try AudioPolicyNames.sessionPath(7).rawValue, "/org/mprisd/AudioPolicy/session/7")
        XCTAssertTrue(try AudioPolicyNames.sessionPath(7).isDescendant(of: AudioPolicyNames.objectPath))
    }
}
