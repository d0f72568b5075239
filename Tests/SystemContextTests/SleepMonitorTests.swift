import DBus
import Foundation
import Synchronization
import SystemContext
import TestSupport
import XCTest

/// `SleepMonitor` against python3-dbusmock's logind template on a private system bus: each
/// `PrepareForSleep` reported once and in order, only logind's own, and logind going away in the
/// middle of a sleep counted as the wake-up; no wake-up of its thread while nothing happens.
final class SleepMonitorTests: XCTestCase {
    /// A started monitor on a connection of its own, and what it reported.
    private struct Rig {
        let bus: TestBus
        let logind: FakeLogind
        let connection: Connection
        let monitor: SleepMonitor
        let events: EventRecord<Bool>

        static func start(delaysSleep: Bool = false, handler: @escaping @Sendable (Bool) -> Void = { _ in }) async throws -> Rig {
            let bus = try TestBus(.system)
            let logind = try await FakeLogind.start(on: bus)
            let connection = try Connection(address: bus.address)
            let events = EventRecord<Bool>()
            let monitor = SleepMonitor(connection: connection, delaysSleep: delaysSleep) { preparing in
                handler(preparing)
                events.append(preparing)
            }
            let error: DBusError? = await withCheckedContinuation { continuation in
                monitor.start { result in
                    if case .failure(let error) = result { continuation.resume(returning: error) } else {
                        continuation.resume(returning: nil)
                    }
                }
            }
            if let error { throw error }
            return Rig(bus: bus, logind: logind, connection: connection, monitor: monitor, events: events)
        }

        func waitFor(_ expected: [Bool]) async throws {
            _ = try await events.wait(for: "sleep changes \(expected)", timeout: .seconds(5)) { reported in
                reported.count >= expected.count ? true : nil
            }
            guard events.elements == expected else {
                throw TestSupportError("expected sleep changes \(expected), got \(events.elements)")
            }
        }

        func stop() {
            monitor.stop()
            connection.close()
            logind.stop()
            bus.stop()
        }
    }

    func testEachSleepAndWakeUpIsReportedOnce() async throws {
        let rig = try await Rig.start()
        defer { rig.stop() }
        XCTAssertFalse(rig.monitor.isPreparingForSleep)

        try await rig.logind.prepareForSleep(true)
        try await rig.waitFor([true])
        XCTAssertTrue(rig.monitor.isPreparingForSleep)
        try await rig.logind.prepareForSleep(true)  // said twice: still one sleep
        try await rig.logind.prepareForSleep(false)
        try await rig.waitFor([true, false])
        XCTAssertFalse(rig.monitor.isPreparingForSleep)
    }

    func testOnlyLogindItselfIsBelieved() async throws {
        let rig = try await Rig.start()
        defer { rig.stop() }
        let impostor = try Connection(address: rig.bus.address)
        defer { impostor.close() }
        try impostor.send(.signal(path: try ObjectPath("/org/freedesktop/login1"), interface: "org.freedesktop.login1.Manager",
                                  member: "PrepareForSleep", body: [.boolean(true)]))
        // Had the impostor been believed, the wake-up would be reported before the sleep below.
        try await rig.logind.prepareForSleep(false)
        try await rig.logind.prepareForSleep(true)
        try await rig.waitFor([true])
        // The impostor's signal, had the bus routed it to the monitor, came before this Ping on
        // the monitor's connection, whose I/O thread handles both in order: it has been judged.
        try await impostor.roundTrip(to: rig.connection.uniqueName)
        XCTAssertEqual(rig.events.elements, [true])
    }

    func testLogindGoneDuringASleepCountsAsTheWakeUp() async throws {
        let rig = try await Rig.start()
        defer { rig.stop() }
        try await rig.logind.prepareForSleep(true)
        try await rig.waitFor([true])
        rig.logind.stop()  // nobody is left to say the wake-up
        try await rig.waitFor([true, false])
        XCTAssertFalse(rig.monitor.isPreparingForSleep)
    }

    func testNoWakeUpsWhileNothingChanges() async throws {
        let rig = try await Rig.start()
        defer { rig.stop() }
        // The kernel id of the connection's I/O thread: a reply's completion runs there.
        let ping = Message.methodCall(destination: "org.freedesktop.DBus", path: try ObjectPath("/org/freedesktop/DBus"),
                                      interface: "org.freedesktop.DBus.Peer", member: "Ping")
        let thread: Int32 = try await withCheckedThrowingContinuation { continuation in
            rig.connection.call(ping) { result in
                let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
                let tid = link.split(separator: "/").last.flatMap { Int32($0) } ?? -1
                continuation.resume(with: result.map { _ in tid }.mapError { $0 as any Error })
            }
        }
        let asleep = await ProcessThreads.waitUntilAsleepInPoll([thread])
        XCTAssertTrue(asleep, "the I/O thread did not go back to sleep after the ping")
        let before = try ProcessThreads.contextSwitches(thread)
        // time is the subject here: a second of idleness, in which the thread may not wake
        try await Task.sleep(for: .seconds(1))
        let after = try ProcessThreads.contextSwitches(thread)
        XCTAssertEqual(after, before, "the monitor's I/O thread woke up while nothing changed")

        // The same measurement does see the thread work when logind signals.
        try await rig.logind.prepareForSleep(true)
        try await rig.waitFor([true])
        XCTAssertGreaterThan(try ProcessThreads.contextSwitches(thread), after)
    }

    func testTheDelayLockIsHeldWhileAwakeAndReleasedOnceTheHandlerReturned() async throws {
        // What logind sees while the handler runs, asked on a connection of its own (the handler
        // runs on the monitor's I/O thread and may block: the sleep waits for it).
        let heldDuringHandler = EventRecord<Int>()
        let asker = Mutex<Connection?>(nil)
        let rig = try await Rig.start(delaysSleep: true) { preparing in
            guard preparing, let connection = asker.withLock({ $0 }) else { return }
            let list = Message.methodCall(destination: "org.freedesktop.login1", path: ObjectPath(trusted: "/org/freedesktop/login1"),
                                          interface: "org.freedesktop.login1.Manager", member: "ListInhibitors")
            let reply = try? connection.callAndWait(list, timeout: .seconds(5))
            if case .array(_, let rows)? = reply?.body.first { heldDuringHandler.append(rows.count) }
        }
        let connection = try Connection(address: rig.bus.address)
        defer { connection.close() }
        asker.withLock { $0 = connection }
        defer { rig.stop() }
        XCTAssertTrue(rig.monitor.holdsDelayLock, "taken before start completes")
        let taken = try await rig.logind.inhibitors()
        XCTAssertEqual(taken.map { "\($0.what) \($0.who) \($0.mode)" }, ["sleep mprisd delay"])

        try await rig.logind.prepareForSleep(true)
        try await rig.waitFor([true])
        XCTAssertEqual(heldDuringHandler.elements, [1], "the lock is held until the handler returned")
        XCTAssertFalse(rig.monitor.holdsDelayLock)
        let released = await eventually { (try? await rig.logind.inhibitors().isEmpty) == true }
        XCTAssertTrue(released, "logind sees the lock released")

        try await rig.logind.prepareForSleep(false)
        try await rig.waitFor([true, false])
        let again = await eventually { (try? await rig.logind.inhibitors().count) == 1 }
        XCTAssertTrue(again, "a new lock for the next sleep")
        // logind lists the lock as soon as it granted it; the monitor holds it once the reply with
        // its descriptor has come back, a moment later (seen under ThreadSanitizer).
        let holds = await eventually { rig.monitor.holdsDelayLock }
        XCTAssertTrue(holds, "the monitor holds the new lock")
    }

    func testWithoutDelayNoLockIsTaken() async throws {
        let rig = try await Rig.start()
        defer { rig.stop() }
        XCTAssertFalse(rig.monitor.holdsDelayLock)
        let none = try await rig.logind.inhibitors()
        XCTAssertTrue(none.isEmpty, "\(none)")
    }
}
