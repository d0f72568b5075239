import DBus
import RemoteControl
import TestSupport
import XCTest

/// The endpoint has no timer: an idle player (playing, nobody asking) wakes its D-Bus thread zero
/// times (field notes: mpv-mpris's 100 ms timer costs ≈10 wakeups/s; Chromium's Position timer).
final class IdleTests: EndpointTestCase {
    func testAPlayingEndpointWakesUpZeroTimesWhileIdle() async throws {
        let player = try makePlayer()
        player.start()
        let acquired = try await waitForName(present: true)
        XCTAssertTrue(acquired)
        let namesBefore = Set(try await busNames())
        try await expectPlayerctl("status", prints: "Playing")
        // The tool has exited; once the bus has dropped its connection too, and the player's
        // connection has had what the bus said about it (a round trip), nothing is left to
        // arrive: every D-Bus thread goes back to sleep in poll.
        let observer = try observerConnection()
        let toolGone = try await eventually { Set(try await observer.listNames()).isSubset(of: namesBefore) }
        XCTAssertTrue(toolGone, "playerctl's connection is still on the bus")
        try await player.endpoint.connection.roundTrip()
        let threads = ProcessThreads.named("dbus-conn")
        XCTAssertFalse(threads.isEmpty)
        let asleep = await ProcessThreads.waitUntilAsleepInPoll(threads)
        XCTAssertTrue(asleep, "a D-Bus thread did not go back to sleep")
        let before = try threads.map(ProcessThreads.contextSwitches)
        // time is the subject here: a second of idleness, in which no thread may wake
        try await Task.sleep(for: .seconds(1))
        let after = try threads.map(ProcessThreads.contextSwitches)
        for (index, thread) in threads.enumerated() {
            XCTAssertEqual(after[index], before[index], "D-Bus thread \(thread) woke up while idle")
        }
        XCTAssertEqual(player.calls, [])
    }
}
