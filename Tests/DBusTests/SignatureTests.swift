@testable import DBus
import XCTest

final class SignatureTests: XCTestCase {
    func testParsesEveryTypeAndPrintsItBack() throws {
        let text = "ybnqiuxtdsoghva{sv}a{ys}(ias)aaya(ii)a{oa{sv}}"
        let signature = try Signature(parsing: text)
        XCTAssertEqual(signature.code, text)
        XCTAssertEqual(signature.types.count, 20)
        XCTAssertEqual(signature.types[14], .dictionary(key: .string, value: .variant))
        XCTAssertEqual(signature.types[16], .struct([.int32, .array(.string)]))
    }

    func testEmptySignatureHasNoTypes() throws {
        XCTAssertEqual(try Signature(parsing: "").types, [])
    }

    func testRejectsMalformedSignaturesWithInvalidSignature() {
        for bad in ["a", "(", "()", "(i", "a{vs}", "a{s}", "a{sss}", "{sv}", "z", "i)", "aa", "a{(i)s}"] {
            XCTAssertThrowsError(try Signature(parsing: bad), bad) { error in
                XCTAssertEqual((error as? DBusError)?.name, DBusError.Name.invalidSignature, bad)
            }
        }
    }

    func testEnforcesNestingAndLengthLimits() throws {
        XCTAssertNoThrow(try Signature(parsing: String(repeating: "a", count: 32) + "i"))
        XCTAssertThrowsError(try Signature(parsing: String(repeating: "a", count: 33) + "i"))
        let structs32 = String(repeating: "(", count: 32) + "i" + String(repeating: ")", count: 32)
        XCTAssertNoThrow(try Signature(parsing: structs32))
        XCTAssertThrowsError(try Signature(parsing: "(" + structs32 + ")"))
        XCTAssertThrowsError(try Signature(parsing: String(repeating: "i", count: 256)))
        XCTAssertNoThrow(try Signature(parsing: String(repeating: "i", count: 255)))
    }
}

final class NameAndPathTests: XCTestCase {
    func testObjectPathValidation() {
        for good in ["/", "/a", "/org/mpris/MediaPlayer2", "/_1_7", "/a/b_c/D9"] {
            XCTAssertNoThrow(try ObjectPath(good), good)
        }
        for bad in ["", "a", "/a/", "//", "/a//b", "/a-b", "/a.b", "/ä"] {
            XCTAssertThrowsError(try ObjectPath(bad), bad)
        }
    }

    func testPathRelations() throws {
        let root = ObjectPath.root
        let a = try ObjectPath("/a")
        let ab = try ObjectPath("/a/b")
        XCTAssertTrue(ab.isDescendant(of: a))
        XCTAssertTrue(ab.isDescendant(of: root))
        XCTAssertFalse(a.isDescendant(of: a))
        XCTAssertFalse(try ObjectPath("/ab").isDescendant(of: a))
        XCTAssertEqual(try a.appending("c"), try ObjectPath("/a/c"))
        XCTAssertEqual(try root.appending("x"), try ObjectPath("/x"))
    }

    func testBusInterfaceAndMemberNames() {
        XCTAssertTrue(NameSyntax.isBusName("org.mpris.MediaPlayer2.mprisd"))
        XCTAssertTrue(NameSyntax.isBusName(":1.42"))
        XCTAssertTrue(NameSyntax.isBusName("org.mpris.MediaPlayer2.mprisd.instance-12"))
        XCTAssertFalse(NameSyntax.isBusName("org"))
        XCTAssertFalse(NameSyntax.isBusName("org..x"))
        XCTAssertFalse(NameSyntax.isBusName("org.1x"))
        XCTAssertTrue(NameSyntax.isInterfaceName("org.mpris.MediaPlayer2.Player"))
        XCTAssertFalse(NameSyntax.isInterfaceName("org.mpris-x.Player"))
        XCTAssertTrue(NameSyntax.isMemberName("PlayPause"))
        XCTAssertFalse(NameSyntax.isMemberName("Play.Pause"))
        XCTAssertFalse(NameSyntax.isMemberName("9Play"))
    }

    func testMatchRuleTextQuotesApostrophes() {
        let rule = MatchRule(interface: "org.x.Y", member: "Changed", arguments: [0: "it's", 2: "b"])
        XCTAssertEqual(rule.text, "type='signal',interface='org.x.Y',member='Changed',arg0='it'\\''s',arg2='b'")
    }
}
