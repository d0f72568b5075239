import DBus
@testable import RemoteControl
import XCTest

final class MPRISBusNameTests: XCTestCase {
    func testPrimaryAndInstanceNamesAreValidBusNames() throws {
        let name = try MPRISBusName(application: "mprisd")
        XCTAssertEqual(name.primary, "org.mpris.MediaPlayer2.mprisd")
        XCTAssertEqual(name.instance(pid: 4242), "org.mpris.MediaPlayer2.mprisd.instance4242")
        XCTAssertTrue(NameSyntax.isBusName(name.primary))
        XCTAssertTrue(NameSyntax.isBusName(name.instance(pid: 1)))
    }

    func testUnusableCharactersAreReplaced() throws {
        XCTAssertEqual(try MPRISBusName(application: "my player.x").primary, "org.mpris.MediaPlayer2.my_player_x")
        XCTAssertEqual(try MPRISBusName(application: "9lives").application, "_9lives")
        XCTAssertTrue(NameSyntax.isBusName(try MPRISBusName(application: "ünïcode/…").primary))
        XCTAssertThrowsError(try MPRISBusName(application: ""))
    }
}
