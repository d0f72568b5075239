@testable import DBus
import XCTest

final class ValueTests: XCTestCase {
    func testEmptyContainersKeepTheirExactType() {
        XCTAssertEqual([String]().dbusValue.type.code, "as")
        XCTAssertEqual([String: Variant]().dbusValue.type.code, "a{sv}")
        XCTAssertEqual([[Int32]]().dbusValue.type.code, "aai")
        XCTAssertEqual(DBusValue.struct([.int32(1), .array(element: .string, [])]).type.code, "(ias)")
    }

    func testDictionaryEqualityIgnoresOrder() {
        let a = DBusValue.dictionary(key: .string, value: .int32, [DictionaryEntry(.string("x"), .int32(1)),
                                                                    DictionaryEntry(.string("y"), .int32(2))])
        let b = DBusValue.dictionary(key: .string, value: .int32, [DictionaryEntry(.string("y"), .int32(2)),
                                                                    DictionaryEntry(.string("x"), .int32(1))])
        let c = DBusValue.dictionary(key: .string, value: .int32, [DictionaryEntry(.string("y"), .int32(3)),
                                                                    DictionaryEntry(.string("x"), .int32(1))])
        XCTAssertEqual(a, b)
        XCTAssertEqual(a.hashValue, b.hashValue)
        XCTAssertNotEqual(a, c)
    }

    func testNaNEqualsItselfSoUnchangedPropertiesStayQuiet() {
        XCTAssertEqual(DBusValue.double(.nan), DBusValue.double(.nan))
        XCTAssertNotEqual(DBusValue.double(0.0), DBusValue.double(-0.0))
        XCTAssertNotEqual(DBusValue.int32(1), DBusValue.uint32(1))
    }

    func testTypedConversionsBothWays() throws {
        let metadata: [String: Variant] = ["xesam:title": Variant("Song"), "mpris:length": Variant(Int64(5_000_000))]
        let back = try [String: Variant](dbusValue: metadata.dbusValue)
        XCTAssertEqual(back, metadata)
        XCTAssertEqual(try [Int32](dbusValue: [Int32(1), 2, 3].dbusValue), [1, 2, 3])
        XCTAssertThrowsError(try [Int32](dbusValue: [UInt32(1)].dbusValue)) { error in
            XCTAssertEqual((error as? DBusError)?.name, DBusError.Name.invalidArgs)
        }
        XCTAssertThrowsError(try String(dbusValue: .int32(1)))
    }

    /// Values no message may carry: each one's own check names what is wrong.
    private static let unmarshallable: [DBusValue] = [
        .string("a\u{0}b"),
        .array(element: .string, [.int32(1)]),
        .array(element: .byte, [.byte(1), .int32(1)]),
        .dictionary(key: .string, value: .int32, [DictionaryEntry(.int32(1), .int32(1))]),
        .dictionary(key: .variant, value: .int32, []),
        .struct([]),
        (0..<70).reduce(DBusValue.int32(0)) { inner, _ in .variant(inner) },
    ]

    func testValidationRejectsWhatCannotBeMarshalled() {
        for value in Self.unmarshallable {
            XCTAssertThrowsError(try value.validate(), "\(value)") { error in
                XCTAssertEqual((error as? DBusError)?.name, DBusError.Name.invalidArgs)
            }
        }
        XCTAssertNoThrow(try (0..<60).reduce(DBusValue.int32(0)) { inner, _ in .variant(inner) }.validate())
    }

    /// Marshalling makes the same checks in its single walk, at any depth: bare, inside a variant
    /// of an `a{sv}`, and as a struct field. A message that fails is never built.
    func testMarshallingRejectsWhatValidationRejects() {
        for value in Self.unmarshallable {
            for body in [[value],
                         [.dictionary(key: .string, value: .variant, [DictionaryEntry(.string("k"), .variant(value))])],
                         [.struct([.int32(1), value])]] {
                let message = Message.methodCall(destination: nil, path: .root, interface: nil, member: "X", body: body)
                XCTAssertThrowsError(try message.makeLibdbusMessage(), "\(body)") { error in
                    XCTAssertEqual((error as? DBusError)?.name, DBusError.Name.invalidArgs, "\(body)")
                }
            }
        }
        let deepButLegal = (0..<60).reduce(DBusValue.int32(0)) { inner, _ in .variant(inner) }
        let sendable = [deepButLegal, .array(element: .byte, [.byte(1), .byte(2)]), .string("plain"),
                        .dictionary(key: .string, value: .variant, [DictionaryEntry(.string("k"), .variant(.struct([.int32(1)])))])]
        for value in sendable {
            let message = Message.methodCall(destination: nil, path: .root, interface: nil, member: "X", body: [value])
            XCTAssertNoThrow(try message.makeLibdbusMessage(), "\(value)")
        }
    }

    func testMessageRefusesBadHeaders() {
        XCTAssertThrowsError(try Message.methodCall(destination: "not a name", path: .root, interface: nil,
                                                    member: "X").makeLibdbusMessage())
        XCTAssertThrowsError(try Message.methodCall(destination: nil, path: .root, interface: "nodots",
                                                    member: "X").makeLibdbusMessage())
        XCTAssertThrowsError(try Message.methodCall(destination: nil, path: .root, interface: nil,
                                                    member: "Bad.Member").makeLibdbusMessage())
        XCTAssertThrowsError(try Message.methodCall(destination: nil, path: .root, interface: nil, member: "X",
                                                    body: Array(repeating: .int32(1), count: 256)).makeLibdbusMessage())
    }
}
