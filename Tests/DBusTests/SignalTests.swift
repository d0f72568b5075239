import DBus
import TestSupport
import Synchronization
import XCTest

final class SignalTests: BusTestCase {
    private func emit(_ connection: Connection, member: String, _ body: [DBusValue], path: String = "/s") throws {
        try connection.send(.signal(path: try ObjectPath(path), interface: "org.mprisd.Sig", member: member, body: body))
    }

    func testRulesSelectSignalsPerSubscription() async throws {
        let sender = try connect()
        let receiver = try connect()
        let (changed, changedSub) = try await receiver.signals(MatchRule(interface: "org.mprisd.Sig", member: "Changed",
                                                                         arguments: [0: "volume"]))
        let (everything, everythingSub) = try await receiver.signals(MatchRule(interface: "org.mprisd.Sig",
                                                                               pathNamespace: try ObjectPath("/s")))
        defer { changedSub.cancel(); everythingSub.cancel() }
        try emit(sender, member: "Changed", [.string("title")])
        try emit(sender, member: "Other", [.string("volume")])
        try emit(sender, member: "Changed", [.string("volume")], path: "/s/sub")
        try emit(sender, member: "Changed", [.string("volume")], path: "/elsewhere")

        var changedIterator = changed.makeAsyncIterator()
        let first = await changedIterator.next()
        XCTAssertEqual(first?.path, try ObjectPath("/s/sub"), "arg0 and member filter")
        let second = await changedIterator.next()
        XCTAssertEqual(second?.path, try ObjectPath("/elsewhere"))

        var allIterator = everything.makeAsyncIterator()
        var members: [String] = []
        for _ in 0..<3 { if let message = await allIterator.next() { members.append(message.member ?? "") } }
        XCTAssertEqual(members, ["Changed", "Other", "Changed"], "path_namespace excludes /elsewhere")
    }

    func testWellKnownSenderRuleFollowsTheOwner() async throws {
        let owner = try connect()
        let impostor = try connect()
        let receiver = try connect()
        _ = try await owner.requestName("org.mprisd.Sender")
        let (stream, subscription) = try await receiver.signals(MatchRule(sender: "org.mprisd.Sender",
                                                                          interface: "org.mprisd.Sig"))
        defer { subscription.cancel() }
        // A catch-all subscription on the same connection makes the impostor's signal reach the
        // process, so only local matching can keep it out of `stream`.
        let (_, all) = try await receiver.signals(MatchRule(interface: "org.mprisd.Sig"))
        defer { all.cancel() }
        try emit(impostor, member: "Fake", [])
        try emit(owner, member: "Real", [])
        var iterator = stream.makeAsyncIterator()
        let first = await iterator.next()
        XCTAssertEqual(first?.member, "Real")
        XCTAssertEqual(first?.sender, owner.uniqueName)
    }

    func testCancelStopsDeliveryAndFinishesTheStream() async throws {
        let sender = try connect()
        let receiver = try connect()
        let count = Mutex(0)
        let subscription = try await receiver.subscribe(MatchRule(interface: "org.mprisd.Sig")) { _ in
            count.withLock { $0 += 1 }
        }
        try emit(sender, member: "A", [])
        do { let ok = await eventually { count.withLock { $0 == 1 } }; XCTAssertTrue(ok) }
        subscription.cancel()
        let (stream, marker) = try await receiver.signals(MatchRule(interface: "org.mprisd.Sig", member: "Marker"))
        try emit(sender, member: "A", [])
        try emit(sender, member: "Marker", [])
        var iterator = stream.makeAsyncIterator()
        _ = await iterator.next()
        XCTAssertEqual(count.withLock { $0 }, 1, "no delivery after cancel")
        marker.cancel()
        let end = await iterator.next()
        XCTAssertNil(end, "a cancelled subscription's stream finishes")
    }

    func testInvalidMatchRuleIsAnError() async throws {
        let receiver = try connect()
        do {
            _ = try await receiver.subscribe(MatchRule(arguments: [64: "x"])) { _ in }
            XCTFail("expected the bus to refuse arg64")
        } catch {
            XCTAssertEqual(error.name, DBusError.Name.matchRuleInvalid)
        }
    }
}
