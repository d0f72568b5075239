import DBus
import Foundation
import RemoteControl
import TestSupport
import XCTest

/// The endpoint has no timer: an idle player (playing, nobody asking) wakes its D-Bus thread zero
/// times (field notes: mpv-mpris's 100 ms timer costs ≈10 wakeups/s; Chromium's Position timer).
final class IdleTests: EndpointTestCase {
    /// Context switches of every D-Bus I/O thread of this process (`dbus-conn`), by thread id.
    private func dbusThreadSwitches() throws -> [String: Int] {
        var result: [String: Int] = [:]
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")
        for task in tasks {
            let comm = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
            guard comm.hasPrefix("dbus-conn") else { continue }
            let status = try String(contentsOfFile: "/proc/self/task/\(task)/status", encoding: .utf8)
            var switches = 0
            for line in status.split(separator: "\n") where line.contains("ctxt_switches") {
                switches += Int(line.split(separator: "\t").last.map(String.init)?
                    .trimmingCharacters(in: .whitespaces) ?? "") ?? 0
            }
            result[task] = switches
        }
        return result
    }

    func testAPlayingEndpointWakesUpZeroTimesWhileIdle() async throws {
        let player = try makePlayer()
        player.start()
        let acquired = try await waitForName(present: true)
        XCTAssertTrue(acquired)
        try await expectPlayerctl("status", prints: "Playing")
        try await Task.sleep(for: .milliseconds(200))  // let the tool's disconnect settle
        let before = try dbusThreadSwitches()
        XCTAssertFalse(before.isEmpty)
        try await Task.sleep(for: .seconds(1))
        let after = try dbusThreadSwitches()
        for (thread, count) in before {
            XCTAssertEqual(after[thread], count, "D-Bus thread \(thread) woke up while idle")
        }
        XCTAssertEqual(player.calls, [])
    }
}
