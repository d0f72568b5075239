import DBus
import Foundation
import Glibc
import Synchronization
import SystemContext
import TestSupport

/// A private system bus, a `LockMonitor` on a connection of its own (created by `start`), the
/// changes it reported, and the fake logind, if any.
final class LockRig: Sendable {
    let bus: TestBus
    let connection: Connection
    let events = EventRecord<Bool>()
    private let fake: Mutex<FakeLogind?>
    private let created = Mutex<LockMonitor?>(nil)

    init(bus: TestBus, logind: FakeLogind? = nil) async throws {
        self.bus = bus
        fake = Mutex(logind)
        connection = try Connection(address: bus.address)
    }

    static func withLogind() async throws -> LockRig {
        let bus = try TestBus(.system)
        return try await LockRig(bus: bus, logind: FakeLogind.start(on: bus))
    }

    static func withoutLogind() async throws -> LockRig {
        try await LockRig(bus: TestBus(.system))
    }

    /// The monitor (created on first use, for this process's user).
    var monitor: LockMonitor { monitor(defaultInit: false, sessionID: nil) }

    private func monitor(defaultInit: Bool, sessionID: String?) -> LockMonitor {
        created.withLock { monitor in
            if let monitor { return monitor }
            let events = events
            let made = defaultInit
                ? LockMonitor(connection: connection) { events.append($0) }
                : LockMonitor(connection: connection, uid: getuid(), sessionID: sessionID) { events.append($0) }
            monitor = made
            return made
        }
    }

    /// Creates the monitor (with the public two-argument initialiser, or for `sessionID`) and
    /// starts it; throws what `start` reports.
    func start(defaultInit: Bool = false, sessionID: String? = nil) async throws {
        _ = monitor(defaultInit: defaultInit, sessionID: sessionID)
        if let error = await startError() { throw error }
    }

    /// Starts the monitor; the error it reports (nil if it started).
    func startError() async -> DBusError? {
        let monitor = monitor
        return await withCheckedContinuation { continuation in
            monitor.start { result in
                if case .failure(let error) = result { continuation.resume(returning: error) } else {
                    continuation.resume(returning: nil)
                }
            }
        }
    }

    func logind() throws -> FakeLogind {
        guard let logind = fake.withLock({ $0 }) else { throw TestSupportError("this rig has no fake logind") }
        return logind
    }

    func startLogind() async throws -> FakeLogind {
        let logind = try await FakeLogind.start(on: bus)
        fake.withLock { $0 = logind }
        return logind
    }

    func killLogind() {
        fake.withLock { $0 }?.stop()
    }

    /// Waits until exactly `expected` was reported (fails at once on anything else).
    func waitFor(_ expected: [Bool]) async throws {
        do {
            try await events.wait(for: "lock changes \(expected)", timeout: .seconds(5)) { reported in
                reported.count >= expected.count ? true : nil
            }
        } catch {
            throw TestSupportError("\(error); reported so far: \(events.elements)\n"
                + ((try? logind().diagnostics) ?? ""))
        }
        guard events.elements == expected else {
            throw TestSupportError("expected lock changes \(expected), got \(events.elements)")
        }
    }

    /// The kernel id of the connection's I/O thread (a reply's completion runs there).
    func ioThreadID() async throws -> Int32 {
        let ping = Message.methodCall(destination: "org.freedesktop.DBus", path: try ObjectPath("/org/freedesktop/DBus"),
                                      interface: "org.freedesktop.DBus.Peer", member: "Ping")
        return try await withCheckedThrowingContinuation { continuation in
            connection.call(ping) { result in
                let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
                let tid = link.split(separator: "/").last.flatMap { Int32($0) } ?? -1
                continuation.resume(with: result.map { _ in tid }.mapError { $0 as any Error })
            }
        }
    }

    func stop() {
        created.withLock { $0 }?.stop()
        connection.close()
        fake.withLock { $0 }?.stop()
        bus.stop()
    }
}
