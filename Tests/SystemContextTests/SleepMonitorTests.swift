import DBus
import Foundation
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

        static func start() async throws -> Rig {
            let bus = try TestBus(.system)
            let logind = try await FakeLogind.start(on: bus)
            let connection = try Connection(address: bus.address)
            let events = EventRecord<Bool>()
            let monitor = SleepMonitor(connection: connection) { events.append($0) }
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
        try await Task.sleep(for: .milliseconds(200))
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
        try await Task.sleep(for: .milliseconds(200))  // let the thread go back to sleep after the ping
        let before = try LockRig.contextSwitches(ofThread: thread)
        try await Task.sleep(for: .seconds(1))
        let after = try LockRig.contextSwitches(ofThread: thread)
        XCTAssertEqual(after, before, "the monitor's I/O thread woke up while nothing changed")

        // The same measurement does see the thread work when logind signals.
        try await rig.logind.prepareForSleep(true)
        try await rig.waitFor([true])
        XCTAssertGreaterThan(try LockRig.contextSwitches(ofThread: thread), after)
    }
}
