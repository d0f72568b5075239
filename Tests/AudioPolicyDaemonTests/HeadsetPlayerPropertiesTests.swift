@testable import AudioPolicyDaemon
import DBus
import XCTest

/// What the registered player shows bluetoothd: every property, in the types bluetoothd's parser
/// accepts (profiles/audio/media.c refuses a whole `RegisterPlayer` for one value of another type).
final class HeadsetPlayerPropertiesTests: XCTestCase {
    private func dictionary(_ entries: [(String, DBusValue)]) -> DBusValue {
        .dictionary(key: .string, value: .variant, entries.map { DictionaryEntry(.string($0.0), .variant($0.1)) })
    }

    private func metadata(of properties: HeadsetPlayerProperties) -> [String: DBusValue] {
        guard case .dictionary(_, _, let entries) = properties.value("Metadata") else { return [:] }
        var result: [String: DBusValue] = [:]
        for entry in entries {
            if case .string(let key) = entry.key, case .variant(let value) = entry.value { result[key] = value }
        }
        return result
    }

    func testTheRegistrationIsCompleteWithDefaultsForWhatThePlayerLeftOut() {
        var properties = HeadsetPlayerProperties()
        properties.merge(dictionary([("PlaybackStatus", .string("Playing"))]))
        guard case .dictionary(.string, .variant, let entries) = properties.registration else {
            return XCTFail("not an a{sv}: \(properties.registration)")
        }
        let names = entries.compactMap { entry -> String? in if case .string(let name) = entry.key { name } else { nil } }
        XCTAssertEqual(Set(names), Set(HeadsetPlayerProperties.declared.map(\.name)))
        XCTAssertEqual(properties.value("PlaybackStatus"), .string("Playing"))
        XCTAssertEqual(properties.value("CanControl"), .boolean(true), "a player that does not say is still asked")
    }

    func testValuesOfAnotherTypeAreConvertedOrLeftOut() {
        var properties = HeadsetPlayerProperties()
        let changed = properties.merge(dictionary([
            ("PlaybackStatus", .string("Buffering")),       // not an MPRIS status: left out
            ("LoopStatus", .string("Shuffle")),             // bluetoothd refuses it: left out
            ("Shuffle", .string("yes")),                    // wrong type: left out
            ("Position", .uint64(5_000_000)),               // another integer type: converted to x
            ("Rate", .double(.nan)),                        // not finite: left out
            ("Metadata", dictionary([
                ("xesam:title", .string("Song")),
                ("xesam:artist", .string("Band")),           // s where as is due (mpv-mpris 0.7.1)
                ("xesam:genre", .array(element: .string, [.string("Jazz")])),
                ("xesam:album", .int32(3)),                  // wrong type: left out
                ("mpris:length", .uint64(180_000_000)),      // t where x is due
                ("xesam:trackNumber", .int64(7)),            // x where i is due
                ("mpris:trackid", .objectPath(ObjectPath(trusted: "/track/1"))),
            ])),
        ]))
        XCTAssertEqual(Set(changed), ["Position", "Metadata"])
        XCTAssertEqual(properties.value("PlaybackStatus"), .string("Stopped"))
        XCTAssertEqual(properties.value("LoopStatus"), .string("None"))
        XCTAssertEqual(properties.value("Position"), .int64(5_000_000))
        let metadata = metadata(of: properties)
        XCTAssertEqual(metadata["xesam:title"], .string("Song"))
        XCTAssertEqual(metadata["xesam:artist"], .array(element: .string, [.string("Band")]))
        XCTAssertEqual(metadata["xesam:genre"], .array(element: .string, [.string("Jazz")]))
        XCTAssertNil(metadata["xesam:album"])
        XCTAssertEqual(metadata["mpris:length"], .int64(180_000_000))
        XCTAssertEqual(metadata["xesam:trackNumber"], .int32(7))
        XCTAssertEqual(metadata["mpris:trackid"], .objectPath(ObjectPath(trusted: "/track/1")))
    }

    func testOnlyRealChangesAreReported() {
        var properties = HeadsetPlayerProperties()
        XCTAssertEqual(properties.merge(dictionary([("PlaybackStatus", .string("Paused"))])), ["PlaybackStatus"])
        XCTAssertEqual(properties.merge(dictionary([("PlaybackStatus", .string("Paused"))])), [])
        XCTAssertEqual(properties.merge(dictionary([("Volume", .double(0.5)), ("Unknown", .string("x"))])), ["Volume"])
        XCTAssertEqual(properties.merge(.string("not a dictionary")), [])
    }
}
