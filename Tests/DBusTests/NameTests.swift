import DBus
import TestSupport
import Synchronization
import XCTest

final class NameTests: BusTestCase {
    func testRequestQueueReleaseAndEvents() async throws {
        let first = try connect()
        let second = try connect()
        let firstEvents = first.events()
        let secondEvents = second.events()

        do { let got = try await first.requestName("org.mprisd.Name"); XCTAssertEqual(got, .primaryOwner) }
        do { let got = try await first.requestName("org.mprisd.Name"); XCTAssertEqual(got, .alreadyOwner) }
        do { let got = try await second.requestName("org.mprisd.Name", flags: .doNotQueue); XCTAssertEqual(got, .exists) }
        do { let got = try await second.requestName("org.mprisd.Name"); XCTAssertEqual(got, .inQueue) }
        do { let got = try await second.nameOwner("org.mprisd.Name"); XCTAssertEqual(got, first.uniqueName) }

        do { let got = try await first.releaseName("org.mprisd.Name"); XCTAssertEqual(got, .released) }
        do { let got = try await first.releaseName("org.mprisd.Name"); XCTAssertEqual(got, .notOwner) }
        do { let got = try await first.releaseName("org.mprisd.Unknown"); XCTAssertEqual(got, .nonExistent) }

        var firstIterator = firstEvents.makeAsyncIterator()
        var secondIterator = secondEvents.makeAsyncIterator()
        // Every connection first acquires its own unique name.
        var seenFirst: [ConnectionEvent] = []
        while seenFirst.last != .nameLost("org.mprisd.Name"), let event = await firstIterator.next() {
            seenFirst.append(event)
        }
        XCTAssertTrue(seenFirst.contains(.nameAcquired("org.mprisd.Name")))
        var seenSecond: [ConnectionEvent] = []
        while seenSecond.last != .nameAcquired("org.mprisd.Name"), let event = await secondIterator.next() {
            seenSecond.append(event)
        }
        do { let got = try await first.nameOwner("org.mprisd.Name"); XCTAssertEqual(got, second.uniqueName) }
    }

    func testReplacementWithFlags() async throws {
        let first = try connect()
        let second = try connect()
        do { let got = try await first.requestName("org.mprisd.R", flags: .allowReplacement); XCTAssertEqual(got, .primaryOwner) }
        do { let got = try await second.requestName("org.mprisd.R", flags: [.replaceExisting, .doNotQueue]); XCTAssertEqual(got,
                       .primaryOwner) }
        do { let got = try await first.nameOwner("org.mprisd.R"); XCTAssertEqual(got, second.uniqueName) }
    }

    func testWatchNameOwnerSeesCurrentOwnerAndEveryChange() async throws {
        let watcher = try connect()
        let owners = Mutex<[String?]>([])
        let subscription = try await watcher.watchNameOwner("org.mprisd.W") { owner in
            owners.withLock { $0.append(owner) }
        }
        defer { subscription.cancel() }
        XCTAssertEqual(owners.withLock { $0 }, [nil])
        let owner = try connect()
        _ = try await owner.requestName("org.mprisd.W")
        do { let ok = await eventually { owners.withLock { $0.last == owner.uniqueName } }; XCTAssertTrue(ok) }
        owner.close()
        do { let ok = await eventually { owners.withLock { $0.count == 3 && $0.last == .some(nil) } }; XCTAssertTrue(ok) }
    }

    func testListNamesAndInvalidNames() async throws {
        let connection = try connect()
        let names = try await connection.listNames()
        XCTAssertTrue(names.contains(connection.uniqueName))
        XCTAssertTrue(names.contains("org.freedesktop.DBus"))
        do {
            _ = try await connection.requestName("not-a-name")
            XCTFail("expected InvalidArgs")
        } catch {
            XCTAssertEqual(error.name, DBusError.Name.invalidArgs)
        }
        do { let got = try await connection.nameOwner("org.mprisd.Nobody"); XCTAssertNil(got) }
    }
}
