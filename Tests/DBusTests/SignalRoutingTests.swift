@testable import DBus
import Glibc
import Posix
import Synchronization
import TestSupport
import XCTest

/// Routing a signal costs the same however many subscriptions a connection has, and a match rule
/// whose `AddMatch` did not answer in time is not left on the bus.
final class SignalRoutingTests: BusTestCase {
    private static let properties = "org.freedesktop.DBus.Properties"

    private func propertiesChanged(from sender: String) throws -> Message {
        var signal = Message.signal(path: try ObjectPath("/org/mpris/MediaPlayer2"), interface: Self.properties,
                                    member: "PropertiesChanged", body: [.string("org.mpris.MediaPlayer2.Player")])
        signal.sender = sender
        return signal
    }

    func testEachSignalReachesOnlyItsSubscriptionAmongThousands() throws {
        let router = SignalRouter()
        let count = 10_000
        let delivered = Mutex<[Int]>([])
        for index in 0..<count {
            let rule = MatchRule(sender: ":1.\(index)", interface: Self.properties, member: "PropertiesChanged",
                                 path: try ObjectPath("/org/mpris/MediaPlayer2"))
            router.add(UInt64(index), SignalRouter.Subscription(rule: rule, handler: { _ in
                delivered.withLock { $0.append(index) }
            }, onFinish: nil))
        }
        let signals = try (0..<count).map { try propertiesChanged(from: ":1.\($0)") }
        let started = ContinuousClock.now
        for signal in signals { router.route(signal) }
        let elapsed = ContinuousClock.now - started
        print("routing: \(count) signals over \(count) subscriptions in \(elapsed)")
        XCTAssertEqual(delivered.withLock { $0 }, Array(0..<count))
        // A scan of every subscription per signal would compare 10^8 rules: tens of seconds.
        XCTAssertLessThan(elapsed, .seconds(2))
    }

    func testAWellKnownSenderIsMatchedThroughItsCurrentOwner() throws {
        let router = SignalRouter()
        let delivered = Mutex(0)
        let rule = MatchRule(sender: "org.mprisd.Named", interface: Self.properties)
        router.add(1, SignalRouter.Subscription(rule: rule, handler: { _ in delivered.withLock { $0 += 1 } }, onFinish: nil))
        router.setOwner(":1.7", of: "org.mprisd.Named")
        router.route(try propertiesChanged(from: ":1.8"))
        router.route(try propertiesChanged(from: ":1.7"))
        XCTAssertEqual(delivered.withLock { $0 }, 1)
        // The name moves: the bus says so, and only the new owner's signals match.
        var moved = Message.signal(path: BusDaemon.path, interface: BusDaemon.interface, member: "NameOwnerChanged",
                                   body: [.string("org.mprisd.Named"), .string(":1.7"), .string(":1.8")])
        moved.sender = BusDaemon.name
        router.route(moved)
        router.route(try propertiesChanged(from: ":1.7"))
        router.route(try propertiesChanged(from: ":1.8"))
        XCTAssertEqual(delivered.withLock { $0 }, 2)
    }

    func testAnAddMatchThatTimedOutIsRemovedFromTheBus() async throws {
        let subscriber = try connect()
        let observer = try connect()
        let baseline = try await observer.matchRuleCount(of: subscriber.uniqueName)
        // The bus stops answering: the AddMatch waits in its socket past the timeout.
        kill(bus.pid, SIGSTOP)
        let result = Latch<Result<SignalSubscription, DBusError>>()
        subscriber.subscribe(MatchRule(interface: "org.mprisd.Late"), { _ in }, timeout: .milliseconds(200),
                             completion: { result.open(with: $0) })
        let outcome = result.wait()
        kill(bus.pid, SIGCONT)
        guard case .failure(let error) = outcome else { return XCTFail("the subscription succeeded: \(outcome)") }
        XCTAssertEqual(error.name, DBusError.Name.noReply)
        // The bus has now added the rule after all; the subscriber's later calls come after its
        // RemoveMatch, so a round trip of its own is enough to see the result.
        _ = try await subscriber.nameOwner(BusDaemon.name)
        let rules = try await observer.matchRuleCount(of: subscriber.uniqueName)
        XCTAssertEqual(rules, baseline, "the timed-out rule is still on the bus")
    }
}
