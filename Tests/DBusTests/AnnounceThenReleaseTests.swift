import DBus
import TestSupport
import XCTest

/// `ExportedObject.propertiesChanged(_:_:thenReleasing:)`: the changed values go out before the
/// name does, and the completion gets the bus's answer.
final class AnnounceThenReleaseTests: BusTestCase {
    private static let name = "org.mprisd.Announcer"
    private static let interface = "org.mprisd.Announcer"

    func testTheAnnouncementComesBeforeTheRelease() async throws {
        let state = ValueBox("playing")
        let (_, object) = try await service(Self.name, [
            Interface(Self.interface, properties: [
                Property("State", .string, get: { .string(state.value.withLock { $0 }) }),
            ]),
        ])
        let client = try connect()
        let seen = ValueBox<[String]>([])
        let subscriptions = [
            try await client.subscribe(MatchRule(interface: "org.freedesktop.DBus.Properties",
                                                 member: "PropertiesChanged", path: object.path)) { message in
                guard message.body.count == 3, case .dictionary(_, _, let entries) = message.body[1],
                      case .variant(.string(let value))? = entries.first?.value else { return }
                seen.value.withLock { $0.append("State=\(value)") }
            },
            try await client.subscribe(MatchRule(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus",
                                                 member: "NameOwnerChanged", arguments: [0: Self.name])) { message in
                guard message.body.count == 3, case .string(let owner) = message.body[2], owner.isEmpty else { return }
                seen.value.withLock { $0.append("released") }
            },
        ]
        defer { for subscription in subscriptions { subscription.cancel() } }

        state.value.withLock { $0 = "stopped" }
        let reply = await withCheckedContinuation { (done: CheckedContinuation<Result<Connection.ReleaseNameReply, DBusError>, Never>) in
            object.propertiesChanged(Self.interface, ["State"], thenReleasing: Self.name) { done.resume(returning: $0) }
        }
        XCTAssertEqual(try reply.get(), .released)
        let both = await eventually { seen.value.withLock { $0.count } == 2 }
        XCTAssertTrue(both)
        XCTAssertEqual(seen.value.withLock { $0 }, ["State=stopped", "released"])

        // Nothing changed since: no signal; the release still reaches the bus, which owns nothing to give up.
        let again = await withCheckedContinuation { (done: CheckedContinuation<Result<Connection.ReleaseNameReply, DBusError>, Never>) in
            object.propertiesChanged(Self.interface, ["State"], thenReleasing: Self.name) { done.resume(returning: $0) }
        }
        XCTAssertEqual(try again.get(), .nonExistent)
        XCTAssertEqual(seen.value.withLock { $0 }, ["State=stopped", "released"])
    }
}
