import AudioPolicyClient
import DBus
import Foundation
import PolicyTestSupport
import SessionCore
import TestSupport
import XCTest

/// Malformed calls from real tools get error replies naming what is wrong; the daemon answers on.
final class PolicyMalformedCallTests: PolicyTestCase {
    func testMalformedConfigurationsAreRefusedAndTheDaemonAnswersOn() async throws {
        _ = try startDaemon()
        let policy = [AudioPolicyNames.objectPath.rawValue, AudioPolicyNames.interface]
        let cases: [(arguments: [String], expected: String)] = [
            (["Register", "a{sv}", "1", "category", "s", "nope"], "category: unknown category 'nope'"),
            (["Register", "a{sv}", "1", "mode", "s", "loud"], "mode: unknown mode 'loud'"),
            (["Register", "a{sv}", "1", "options", "s", "duckOthers"], "options: expected 'as', got 's'"),
            (["Register", "a{sv}", "1", "options", "as", "1", "shout"], "options: unknown option"),
            (["Register", "a{sv}", "1", "category", "i", "3"], "category: expected 's', got 'i'"),
            (["Register", "s", "playback"], "Register takes 'a{sv}', not 's'"),
            (["SetRouteOverride", "s", "nowhere"], "unknown port nowhere"),
        ]
        for (arguments, expected) in cases {
            let result = try await busctl(policy + arguments)
            XCTAssertNotEqual(result.status, 0, "\(arguments)")
            XCTAssertTrue(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
        }
        let (music, _) = try playbackSession("music")
        let path = try XCTUnwrap(music.path).rawValue
        // The owner's own malformed options, sent on its own connection.
        let own = music.client.connection
        XCTAssertThrowsError(try own.callAndWait(.methodCall(
            destination: AudioPolicyNames.busName, path: try ObjectPath(path), interface: AudioPolicyNames.sessionInterface,
            member: "Activate", body: [.dictionary(key: .string, value: .variant, [
                DictionaryEntry(.string("allowDelayedActivation"), .variant(.string("yes")))])]))) {
            XCTAssertEqual(($0 as? DBusError)?.name, DBusError.Name.invalidArgs)
            XCTAssertTrue(($0 as? DBusError)?.message.contains("allowDelayedActivation") ?? false, "\($0)")
        }
        XCTAssertFalse(music.isActive)
        let good = try await busctl(policy + ["Register", "a{sv}", "2", "category", "s", "ambient", "name", "s", "chime"])
        XCTAssertEqual(good.status, 0, good.stderr)
        XCTAssertTrue(good.stdout.hasPrefix("o \"/org/mprisd/AudioPolicy/session/"), good.stdout)
        // busctl has left: its session went with it; music stays.
        let stillThere = await eventually { (try? self.status().sessions.map(\.name)) == ["music"] }
        XCTAssertTrue(stillThere)
    }
}
