@testable import AudioPolicyDaemon
import DBus
@testable import MPRISDirectory
import XCTest

/// The directory's one copy of a player's properties: every way a change can come, table-tested.
final class MPRISPropertyStoreTests: XCTestCase {
    private func dictionary(_ entries: [(String, DBusValue)]) -> DBusValue {
        .dictionary(key: .string, value: .variant, entries.map { DictionaryEntry(.string($0.0), .variant($0.1)) })
    }

    func testMergeReportsWhatChangedAndKeepsTheNewestValue() {
        let cases: [(name: String, before: [(String, DBusValue)], change: DBusValue, changed: [String],
                     status: String?)] = [
            ("first read", [], dictionary([("PlaybackStatus", .string("Playing")), ("Volume", .double(0.8))]),
             ["PlaybackStatus", "Volume"], "Playing"),
            ("same value again is no change", [("PlaybackStatus", .string("Playing"))],
             dictionary([("PlaybackStatus", .string("Playing"))]), [], "Playing"),
            ("a new status", [("PlaybackStatus", .string("Playing"))],
             dictionary([("PlaybackStatus", .string("Paused"))]), ["PlaybackStatus"], "Paused"),
            ("a status of the wrong type is kept but is no status", [],
             dictionary([("PlaybackStatus", .int32(1))]), ["PlaybackStatus"], nil),
            ("not an a{sv}: nothing", [("PlaybackStatus", .string("Playing"))],
             .array(element: .string, [.string("PlaybackStatus")]), [], "Playing"),
        ]
        for entry in cases {
            var store = MPRISPropertyStore()
            store.merge(dictionary(entry.before))
            XCTAssertEqual(store.merge(entry.change), entry.changed, entry.name)
            XCTAssertEqual(store.playbackStatus, entry.status, entry.name)
        }
    }

    func testInvalidatedPropertiesAreForgotten() {
        var store = MPRISPropertyStore()
        store.merge(dictionary([("Metadata", .dictionary(key: .string, value: .variant, [])), ("Volume", .double(1))]))
        store.invalidate(.array(element: .string, [.string("Metadata")]))
        XCTAssertNil(store["Metadata"])
        XCTAssertEqual(store["Volume"], .double(1))
        store.invalidate(.string("Volume"))  // not an `as`: ignored
        XCTAssertEqual(store["Volume"], .double(1))
    }

    func testAHostilePlayerCannotGrowTheStoreWithoutBound() {
        var store = MPRISPropertyStore()
        store.merge(dictionary((0..<1000).map { ("Property\($0)", .int32(Int32($0))) }))
        XCTAssertEqual(store.values.count, MPRISPropertyStore.limit)
        store.merge(dictionary([(String(repeating: "x", count: 1000), .boolean(true))]))
        XCTAssertEqual(store.values.count, MPRISPropertyStore.limit, "an over-long name is dropped")
        let changed = store.merge(dictionary([("Property0", .int32(7))]))
        XCTAssertEqual(changed, ["Property0"], "a property already kept still changes")
    }

    func testTheDictionaryIsWhatGetAllWouldAnswer() {
        var store = MPRISPropertyStore()
        store.merge(dictionary([("Volume", .double(0.5)), ("CanPause", .boolean(true))]))
        XCTAssertEqual(store.dictionary, dictionary([("CanPause", .boolean(true)), ("Volume", .double(0.5))]),
                       "every value, names in order")
        XCTAssertEqual(MPRISPlayerProperties(dictionary: store.dictionary).volume, 0.5, "the policy reads it as from GetAll")
    }
}
