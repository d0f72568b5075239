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
}
