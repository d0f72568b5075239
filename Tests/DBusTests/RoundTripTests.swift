import DBus
import TestSupport
import Synchronization
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Every D-Bus type, sent through a real bus and back, compares equal.
final class RoundTripTests: BusTestCase {
    static func samples() throws -> [DBusValue] {
        let path = try ObjectPath("/org/mprisd/track/7")
        let nested: DBusValue = .variant(.variant(.variant(.struct([.string("deep"), .int64(-1)]))))
        return [
            .byte(0), .byte(255),
            .boolean(true), .boolean(false),
            .int16(.min), .int16(.max), .uint16(.max),
            .int32(.min), .int32(-1), .uint32(.max),
            .int64(.min), .int64(.max), .uint64(.max),
            .double(-0.5), .double(.infinity), .double(1e-300),
            .string(""), .string("héllo ✓ \u{1F3B5}"),
            .objectPath(path), .objectPath(.root),
            .signature(try Signature(parsing: "a{sv}(ii)")), .signature(.empty),
            .array(element: .string, []),
            .array(element: .string, [.string("a"), .string("b")]),
            .array(element: .byte, (0...255).map { .byte(UInt8($0)) }),
            .array(element: .array(.int32), [.array(element: .int32, [.int32(1)]), .array(element: .int32, [])]),
            .array(element: .struct([.int32, .string]), [.struct([.int32(1), .string("x")])]),
            .dictionary(key: .string, value: .variant, []),
            [String: Variant](dictionaryLiteral: ("xesam:title", Variant("T")), ("mpris:length", Variant(Int64(3)))).dbusValue,
            .dictionary(key: .byte, value: .string, [DictionaryEntry(.byte(1), .string("one"))]),
            .dictionary(key: .int64, value: .boolean, [DictionaryEntry(.int64(-5), .boolean(true))]),
            .dictionary(key: .objectPath, value: .dictionary(key: .string, value: .variant),
                        [DictionaryEntry(.objectPath(path), .dictionary(key: .string, value: .variant, [
                            DictionaryEntry(.string("k"), .variant(.array(element: .string, []))),
                        ]))]),
            .dictionary(key: .double, value: .uint16, [DictionaryEntry(.double(2.5), .uint16(9))]),
            .struct([.int32(1), .array(element: .string, [.string("s")])]),
            .struct([.struct([.struct([.byte(1)])])]),
            .variant(.int32(5)),
            nested,
            (0..<60).reduce(DBusValue.string("bottom")) { inner, _ in .variant(inner) },
        ]
    }

    func testEveryTypeThroughAMethodCallAndBack() async throws {
        let samples = try Self.samples()
        let server = try connect()
        for (index, sample) in samples.enumerated() {
            _ = try server.export(try ObjectPath("/t/\(index)"), interfaces: [
                Interface("org.mprisd.Test", methods: [
                    .immediate("Echo", inputs: [Argument("value", sample.type)],
                               outputs: [Argument("value", sample.type)]) { $0.body },
                ]),
            ])
        }
        let client = try connect()
        for (index, sample) in samples.enumerated() {
            let reply = try await client.call(destination: server.uniqueName, path: try ObjectPath("/t/\(index)"),
                                              interface: "org.mprisd.Test", member: "Echo", [sample])
            XCTAssertEqual(reply, [sample], "sample \(index) '\(sample.type.code)'")
            XCTAssertEqual(reply.first?.type, sample.type)
        }
    }

    func testAllTypesInOneSignalBody() async throws {
        let samples = try Self.samples()
        let sender = try connect()
        let receiver = try connect()
        let (stream, subscription) = try await receiver.signals(MatchRule(interface: "org.mprisd.Test", member: "All"))
        defer { subscription.cancel() }
        try sender.send(.signal(path: try ObjectPath("/x"), interface: "org.mprisd.Test", member: "All",
                                body: Array(samples.prefix(40))))
        var iterator = stream.makeAsyncIterator()
        let received = await iterator.next()
        XCTAssertEqual(received?.body, Array(samples.prefix(40)))
        XCTAssertEqual(received?.sender, sender.uniqueName)
    }

    func testUnixFileDescriptorTravelsAndStillWorks() async throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        defer { close(fds[0]) }
        let writeEnd = try UnixFD(takingOwnershipOf: fds[1])
        let server = try connect()
        _ = try server.export(try ObjectPath("/fd"), interfaces: [
            Interface("org.mprisd.Test", methods: [
                .immediate("Write", inputs: [Argument("fd", .unixFD)]) { call in
                    let fd = try call.argument(0, as: UnixFD.self)
                    _ = write(fd.fileDescriptor, "hi", 2)
                    return []
                },
            ]),
        ])
        let client = try connect()
        _ = try await client.call(destination: server.uniqueName, path: try ObjectPath("/fd"),
                                  interface: "org.mprisd.Test", member: "Write", [.unixFD(writeEnd)])
        var buffer = [UInt8](repeating: 0, count: 2)
        XCTAssertEqual(read(fds[0], &buffer, 2), 2)
        XCTAssertEqual(buffer, Array("hi".utf8))
    }

    func testUnmarshallableOutgoingValuesThrowAtTheCallSite() async throws {
        let client = try connect()
        do {
            _ = try await client.call(destination: BusNames.bus, path: try ObjectPath("/"), interface: nil,
                                      member: "X", [.string("nul\u{0}inside")])
            XCTFail("expected a thrown error")
        } catch {
            XCTAssertEqual(error.name, DBusError.Name.invalidArgs)
        }
        XCTAssertThrowsError(try client.send(.signal(path: .root, interface: "org.x.Y", member: "Z",
                                                     body: [.array(element: .int32, [.string("x")])])))
        // The connection is still fine.
        let names = try await client.listNames()
        XCTAssertFalse(names.isEmpty)
    }
}

enum BusNames {
    static let bus = "org.freedesktop.DBus"
}
