import DBus
import Foundation
import TestSupport
import XCTest

/// `mprisd play` stopped by `playerctl stop`, again and again with every core busy: a real
/// `dbus-monitor` sees `PlaybackStatus` `Stopped` announced before each release of the name
/// (design "MPRIS endpoint").
final class PlayStopOrderTests: PlayerTestCase {
    private static let runs = 25
    private static let name = "org.mpris.MediaPlayer2.order"

    func testStoppedComesBeforeTheNameGoes() async throws {
        let monitor = try BusMonitor(address: bus.address, rules: BusMonitor.mprisRules(name: Self.name))
        defer { monitor.stop() }
        try await waitUntil("dbus-monitor listens") { monitor.isListening }
        let file = try track("a.wav", seconds: 30)
        let watcher = try connect()
        let load = CPULoad()
        defer { load.stop() }
        for run in 0..<Self.runs {
            let player = try play(["--device", "null", "--name", "order", file])
            try await waitUntil("run \(run): the name appears", timeout: .seconds(10)) {
                try await self.hasName("order", on: watcher)
            }
            try await playerctl("-p", "order", "stop")
            let status = await player.waitForExit(timeout: .seconds(10))
            XCTAssertEqual(status, 0, "run \(run): \(player.stderr)")
        }
        load.stop()

        try await waitUntil("dbus-monitor shows every release") { monitor.releases(of: Self.name).count == Self.runs }
        XCTAssertGreaterThanOrEqual(monitor.playbackStatuses.filter { $0 == "Playing" }.count, Self.runs,
                                    "is the monitor's output parsed?")
        XCTAssertEqual(monitor.releasesWithoutStopped(of: Self.name), [])
    }

    /// The announcement and the release are only queued when the player decides to exit: it
    /// leaves only once the bus has answered the release, so closing its connection drops nothing.
    /// With the bus frozen it waits; once the bus runs again, Stopped and the release arrive in
    /// order and the player exits at once.
    func testExitWaitsForTheBusToTakeTheRelease() async throws {
        let monitor = try BusMonitor(address: bus.address, rules: BusMonitor.mprisRules(name: Self.name))
        defer { monitor.stop() }
        try await waitUntil("dbus-monitor listens") { monitor.isListening }
        let watcher = try connect()
        let player = try play(["--device", "null", "--name", "order", try track("a.wav", seconds: 30)])
        try await waitUntil("the name appears") { try await self.hasName("order", on: watcher) }

        kill(bus.pid, SIGSTOP)
        var frozen = true
        defer { if frozen { kill(bus.pid, SIGCONT) } }
        player.signal(SIGTERM)
        let waits = await holds(for: .milliseconds(600)) { player.isRunning }
        XCTAssertTrue(waits, "the player exited before the bus answered its release")
        kill(bus.pid, SIGCONT)
        frozen = false
        let thawed = ContinuousClock.now
        let status = await player.waitForExit(timeout: .seconds(5))
        XCTAssertEqual(status, 0, player.stderr)
        XCTAssertLessThan(ContinuousClock.now - thawed, .seconds(1), "the player exits once the bus has answered")

        try await waitUntil("dbus-monitor shows the release") { monitor.releases(of: Self.name).count == 1 }
        XCTAssertEqual(monitor.releasesWithoutStopped(of: Self.name), [])
        let present = try await hasName("order", on: watcher)
        XCTAssertFalse(present)
    }
}
