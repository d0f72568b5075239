import AudioPolicyClient
import AudioPolicyDaemon
import DBus
import PolicyTestSupport
import SessionCore
import TestSupport
import XCTest

/// The policy object's `SilentMode`, `Locked`, `OutputVolume` and `RouteOverride` follow the
/// system whoever changed it: the service hears every change from the `AudioSystem` itself, so no
/// monitor or method has to remember to announce it.
final class ConditionAnnouncementTests: PolicyTestCase {
    func testChangesMadeToTheSystemDirectlyAreAnnounced() async throws {
        let daemon = try startDaemon()
        let (announced, subscription) = try await watchAnnouncements()
        defer { subscription.cancel() }

        daemon.system.setLocked(true)
        try await announced.wait(for: "Locked") { $0.contains { $0["Locked"] == .boolean(true) } ? true : nil }
        daemon.system.setSilentMode(true)
        try await announced.wait(for: "SilentMode") { $0.contains { $0["SilentMode"] == .boolean(true) } ? true : nil }
        try daemon.system.setOutputVolume(0.25)
        try await announced.wait(for: "OutputVolume") { $0.contains { $0["OutputVolume"] == .double(0.25) } ? true : nil }
    }

    func testSetSilentModeIsAnnouncedOnce() async throws {
        _ = try startDaemon()
        let (announced, subscription) = try await watchAnnouncements()
        defer { subscription.cancel() }

        let result = try await busctl([AudioPolicyNames.objectPath.rawValue, AudioPolicyNames.interface,
                                       "SetSilentMode", "b", "true"])
        XCTAssertEqual(result.status, 0, result.stderr)
        try await announced.wait(for: "SilentMode") { $0.contains { $0["SilentMode"] == .boolean(true) } ? true : nil }
        // A reply from the daemon comes after every signal it sent before.
        _ = try status()
        XCTAssertEqual(announced.elements, [["SilentMode": .boolean(true)]])
    }

    /// Records the changed properties of each `PropertiesChanged` of the policy object.
    private func watchAnnouncements() async throws -> (EventRecord<[String: DBusValue]>, SignalSubscription) {
        let announced = EventRecord<[String: DBusValue]>()
        let rule = MatchRule(interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
                             path: AudioPolicyNames.objectPath)
        let subscription = try await connect().subscribe(rule) { signal in
            guard signal.body.count == 3, case .dictionary(_, _, let entries) = signal.body[1] else { return }
            var changed: [String: DBusValue] = [:]
            for entry in entries {
                guard case .string(let name) = entry.key, case .variant(let value) = entry.value else { continue }
                changed[name] = value
            }
            announced.append(changed)
        }
        return (announced, subscription)
    }
}
