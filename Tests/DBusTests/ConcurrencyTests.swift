import DBus
import TestSupport
import Synchronization
import XCTest

/// Many tasks calling through one connection at once, and replies produced on other threads.
final class ConcurrencyTests: BusTestCase {
    private func echoInterface() -> Interface {
        Interface("org.mprisd.Test", methods: [
            .immediate("Echo", inputs: [Argument("text", .string)], outputs: [Argument("text", .string)]) { $0.body },
            .task("SlowEcho", inputs: [Argument("text", .string)], outputs: [Argument("text", .string)]) { call in
                // time is the subject here: a handler that takes a while, so replies overtake each other
                try? await Task.sleep(for: .milliseconds(Int.random(in: 0...5)))
                return call.body
            },
        ])
    }

    func testManyTasksThroughOneConnectionAllComplete() async throws {
        let (server, _) = try await service("org.mprisd.Concurrent", [echoInterface()])
        _ = server
        let client = try connect()
        let tasks = 64
        let callsPerTask = 40
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var ok = 0
                    for call in 0..<callsPerTask {
                        let text = "t\(task)-c\(call)"
                        let member = call % 4 == 0 ? "SlowEcho" : "Echo"
                        let reply = try await client.call(destination: "org.mprisd.Concurrent",
                                                          path: try ObjectPath("/org/mprisd/Test"),
                                                          interface: "org.mprisd.Test", member: member, [.string(text)])
                        if reply == [.string(text)] { ok += 1 }
                    }
                    return ok
                }
            }
            return try await group.reduce(0, +)
        }
        XCTAssertEqual(results, tasks * callsPerTask)
    }

    func testRepliesAndSignalsSentFromOtherThreads() async throws {
        let (server, object) = try await service("org.mprisd.Threads", [
            Interface("org.mprisd.Test", methods: [
                .task("Detached", outputs: [Argument("n", .int32)]) { _ in
                    let n = await Task.detached { Int32(42) }.value
                    return [.int32(n)]
                },
            ], signals: [SignalDescription("Tick", [Argument("n", .int32)])]),
        ])
        _ = server
        let client = try connect()
        let (ticks, subscription) = try await client.signals(MatchRule(interface: "org.mprisd.Test", member: "Tick"))
        defer { subscription.cancel() }
        await withTaskGroup(of: Void.self) { group in
            for n in 0..<50 {
                group.addTask { try? object.emit("org.mprisd.Test", "Tick", [.int32(Int32(n))]) }
            }
        }
        var seen = Set<Int32>()
        var iterator = ticks.makeAsyncIterator()
        while seen.count < 50, let tick = await iterator.next() {
            if case .int32(let n)? = tick.body.first { seen.insert(n) }
        }
        XCTAssertEqual(seen, Set(0..<50))
        let reply = try await client.call(destination: "org.mprisd.Threads", path: try ObjectPath("/org/mprisd/Test"),
                                          interface: "org.mprisd.Test", member: "Detached")
        XCTAssertEqual(reply, [.int32(42)])
    }

    func testTimeoutGivesNoReplyAndCancellationAbandonsTheCall() async throws {
        let entered = ValueBox(0)
        let (server, _) = try await service("org.mprisd.Slow", [
            Interface("org.mprisd.Test", methods: [
                .task("Sleep") { _ in
                    entered.value.withLock { $0 += 1 }
                    // time is the subject here: a method slower than the caller's timeout
                    try? await Task.sleep(for: .seconds(3))
                    return []
                },
            ]),
        ])
        _ = server
        let client = try connect()
        let start = ContinuousClock.now
        do {
            _ = try await client.call(.methodCall(destination: "org.mprisd.Slow", path: try ObjectPath("/org/mprisd/Test"),
                                                  interface: "org.mprisd.Test", member: "Sleep"),
                                      timeout: .milliseconds(200))
            XCTFail("expected a timeout")
        } catch {
            XCTAssertEqual(error.name, DBusError.Name.noReply)
        }
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(2))

        let call = Task {
            try await client.call(.methodCall(destination: "org.mprisd.Slow", path: try ObjectPath("/org/mprisd/Test"),
                                              interface: "org.mprisd.Test", member: "Sleep"))
        }
        // Cancelled while outstanding: once the service is running it (its first call was the timed-out one).
        let outstanding = await eventually { entered.current == 2 }
        XCTAssertTrue(outstanding, "the second call never reached the service")
        call.cancel()
        let cancelledAt = ContinuousClock.now
        do {
            _ = try await call.value
            XCTFail("expected cancellation")
        } catch let error as DBusError {
            XCTAssertEqual(error.name, "org.mprisd.DBus.Error.Cancelled")
        }
        XCTAssertLessThan(ContinuousClock.now - cancelledAt, .seconds(1))
    }
}
