import DBus
import Foundation
import Synchronization
import TestSupport
import XCTest

/// Denial of service through MPRIS names: connections that claim thousands of
/// `org.mpris.MediaPlayer2.*` names (a sandboxed app may own any name below its own) cost the
/// daemon a bounded amount of work, cannot crowd out a real player, and leave no match rule behind.
final class DaemonSquatTests: DaemonTestCase {
    /// The test bus lets one connection own 512 names.
    private static let squattersCount = 6
    private static let namesPerSquatter = 500

    /// Set once, read from the flood's task.
    private final class Flag: Sendable {
        private let value = Mutex(false)
        var isSet: Bool { value.withLock { $0 } }
        func set() { value.withLock { $0 = true } }
    }

    /// Names below `org.mpris.MediaPlayer2.squat` of squatter `index`.
    private static func names(of index: Int) -> [String] {
        (0..<namesPerSquatter).map { "org.mpris.MediaPlayer2.squat.c\(index).n\($0)" }
    }

    /// Every squatter requests its names all at once, releases them and requests them again, until
    /// `stop` is set; they hold them all when this returns.
    private static func flood(_ squatters: [Connection], until stop: Flag) async throws {
        while true {
            try await everyName(of: squatters) { connection, name in
                _ = try await connection.requestName(name, flags: .doNotQueue)
            }
            if stop.isSet { return }
            try await everyName(of: squatters) { connection, name in
                try await connection.releaseName(name)
            }
        }
    }

    private static func everyName(of squatters: [Connection],
                                  _ body: @escaping @Sendable (Connection, String) async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, squatter) in squatters.enumerated() {
                for name in names(of: index) {
                    group.addTask { try await body(squatter, name) }
                }
            }
            try await group.waitForAll()
        }
    }

    /// Asks for the status until cancelled; the longest wait for an answer.
    private static func slowestStatus(asking connection: Connection) async throws -> Duration {
        var slowest = Duration.zero
        while !Task.isCancelled {
            let started = ContinuousClock.now
            let message = Message.methodCall(destination: policyName, path: try ObjectPath(policyPath),
                                             interface: policyInterface, member: "GetStatus")
            let result: Result<Message, DBusError> = await withCheckedContinuation { continuation in
                connection.call(message, timeout: .seconds(5)) { continuation.resume(returning: $0) }
            }
            // Cancelled: the test stopped asking; a call in flight just finishes.
            _ = try result.get()
            slowest = max(slowest, ContinuousClock.now - started)
            try? await Task.sleep(for: .milliseconds(20))  // time is the subject here: a status every 20 ms
        }
        return slowest
    }

    func testSquattersCannotCrowdOutARealPlayerNorLeakMatchRules() async throws {
        try XCTSkipUnless(MPVPlayer.isAvailable, "mpv and mpv-mpris are not installed")
        try await startDaemon()
        let owner = try await policyOwner()
        let daemonName = try XCTUnwrap(owner)
        let baseline = try await observer().matchRuleCount(of: daemonName)
        let tone = path("tone.wav")
        try WAVFile.writeCountingTone(seconds: 1, to: tone)

        let squatters = try (0..<Self.squattersCount).map { _ in try connect() }
        let floodStarted = ContinuousClock.now
        let stop = Flag()
        let flood = Task { try await DaemonSquatTests.flood(squatters, until: stop) }
        // GetStatus answers throughout, fast.
        let asker = try connect()
        let answering = Task { try await DaemonSquatTests.slowestStatus(asking: asker) }

        // A real player started during the flood is tracked soon after taking its name.
        try await Task.sleep(for: .milliseconds(100))  // time is the subject here: into the flood
        let mpv = try await MPVPlayer.start(bus: bus, file: tone)
        let appeared = ContinuousClock.now
        try await waitForStatus("the daemon tracks mpv", timeout: .seconds(5)) { status in
            status.players.contains { $0.busName == mpv.busName }
        }
        let trackedAfter = ContinuousClock.now - appeared
        print("squat: mpv took its name \(appeared - floodStarted) into the flood")
        stop.set()
        try await flood.value
        answering.cancel()
        let slowestStatus = try await answering.value
        print("squat: mpv tracked \(trackedAfter) after taking its name; slowest GetStatus \(slowestStatus)")
        // Bounds for a starved daemon (the flood served before anyone else takes many seconds),
        // not for speed: on two loaded CPUs a GetStatus took just over a second once.
        XCTAssertLessThan(trackedAfter, .seconds(3), "mpv was tracked late")
        XCTAssertLessThan(slowestStatus, .seconds(3), "GetStatus was slow during the flood")

        // At most 16 names per squatting connection are followed, with one log line each.
        let flooded = ContinuousClock.now
        let status = try await waitForStatus("the squatters' followed names are read") { status in
            status.players.filter { $0.busName.hasPrefix("org.mpris.MediaPlayer2.squat.") }.count == Self.squattersCount * 16
        }
        XCTAssertTrue(status.players.contains { $0.busName == mpv.busName })
        let capLines = (daemon?.stderr ?? "").split(separator: "\n").filter { $0.contains("MPRIS names: its further names are not followed") }
        XCTAssertEqual(capLines.count, Self.squattersCount, capLines.joined(separator: "\n"))

        print("squat: followed names read \(ContinuousClock.now - flooded) after the flood")
        // The squatters and mpv leave: every rule the daemon added for them goes.
        for squatter in squatters { squatter.close() }
        mpv.kill()
        var rules = -1
        let back = try await eventually(timeout: .seconds(5)) {
            rules = try await self.observer().matchRuleCount(of: daemonName)
            return rules == baseline
        }
        XCTAssertTrue(back, "the daemon has \(rules) match rules, \(baseline) before the squatters came")
        let players = try await busStatus().players
        XCTAssertEqual(players.count, 0)
    }
}
