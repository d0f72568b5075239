import DBus
@testable import RemoteControl
import TestSupport
import XCTest

/// Design "MPRIS endpoint": leaving the audio context emits `PlaybackStatus=Stopped`, then releases
/// the name — in that order whichever thread planned the stop, checked by a real `dbus-monitor`
/// over many stop/play cycles with every core busy.
final class SignalOrderTests: EndpointTestCase {
    private static let cycles = 120
    private static let playerInterface = "org.mpris.MediaPlayer2.Player"

    func testStoppedIsAnnouncedBeforeEveryRelease() async throws {
        let monitor = try BusMonitor(address: bus.address, rules: [
            "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'",
            "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Self.name)'",
        ])
        defer { monitor.stop() }
        let listening = await waitUntil { monitor.isListening }
        XCTAssertTrue(listening, "dbus-monitor never became a monitor")

        let player = try makePlayer()
        let endpoint = player.endpoint
        let client = try connect()
        let load = CPULoad()
        defer { load.stop() }
        for cycle in 0..<Self.cycles {
            player.start()
            switch cycle % 3 {
            case 0:
                // Stopped while the name is still being requested: the release is then planned
                // on the I/O thread (the bus's answer), the stop on this one.
                endpoint.update { $0.playbackState = .stopped }
            case 1:
                // The app stops on its own thread while it owns the name.
                let owned = await waitUntil { endpoint.busName == Self.name }
                XCTAssertTrue(owned, "cycle \(cycle): the name was never acquired")
                endpoint.update { $0.playbackState = .stopped }
            default:
                // A remote Stop (what `playerctl stop` sends): the handler runs on the I/O thread.
                let owned = await waitUntil { endpoint.busName == Self.name }
                XCTAssertTrue(owned, "cycle \(cycle): the name was never acquired")
                _ = try await client.call(destination: Self.name, path: MPRISEndpoint.objectPath,
                                          interface: Self.playerInterface, member: "Stop")
            }
            let settled = await waitUntil { endpoint.isNameSettled && endpoint.busName == nil }
            XCTAssertTrue(settled, "cycle \(cycle): the name was not given back")
            if !settled { return }
        }
        load.stop()

        let allSeen = await waitUntil { Self.releases(in: monitor.entries).count == Self.cycles }
        XCTAssertTrue(allSeen, "dbus-monitor saw \(Self.releases(in: monitor.entries).count) releases, not \(Self.cycles)")
        let entries = monitor.entries
        // A stop right after the start may be read before `Playing` ever goes out; a cycle that
        // waits for the name always announces it.
        XCTAssertGreaterThanOrEqual(Self.statuses(in: entries).filter { $0 == "Playing" }.count, 2 * Self.cycles / 3,
                                    "is the monitor's output parsed?")
        XCTAssertEqual(Self.releasesWithoutStopped(in: entries), [])
    }

    /// The releases of the MPRIS name: `NameOwnerChanged(name, owner, "")`.
    private static func releases(in entries: [BusMonitor.Entry]) -> [BusMonitor.Entry] {
        entries.filter { $0.field("member") == "NameOwnerChanged" && $0.strings.count == 3
            && $0.strings[0] == name && $0.strings[2].isEmpty }
    }

    /// The `PlaybackStatus` values announced, in order.
    private static func statuses(in entries: [BusMonitor.Entry]) -> [String] {
        entries.compactMap(playbackStatus)
    }

    private static func playbackStatus(_ entry: BusMonitor.Entry) -> String? {
        let strings = entry.strings
        guard entry.field("member") == "PropertiesChanged", strings.first == playerInterface,
              let index = strings.firstIndex(of: "PlaybackStatus"), index + 1 < strings.count else { return nil }
        return strings[index + 1]
    }

    /// Each release (by its position among the releases) where the owner's last announced
    /// `PlaybackStatus` was not `Stopped` (the object starts out stopped).
    private static func releasesWithoutStopped(in entries: [BusMonitor.Entry]) -> [String] {
        var lastStatus: [String: String] = [:]
        var releaseIndex = 0
        var violations: [String] = []
        for entry in entries {
            if let status = playbackStatus(entry), let sender = entry.field("sender") {
                lastStatus[sender] = status
            } else if entry.field("member") == "NameOwnerChanged", entry.strings.count == 3,
                      entry.strings[0] == name, entry.strings[2].isEmpty {
                let owner = entry.strings[1]
                let status = lastStatus[owner] ?? "Stopped"
                if status != "Stopped" { violations.append("release \(releaseIndex) by \(owner) after \(status)") }
                releaseIndex += 1
            }
        }
        return violations
    }
}
