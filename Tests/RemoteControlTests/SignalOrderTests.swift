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
        let monitor = try BusMonitor(address: bus.address, rules: BusMonitor.mprisRules(name: Self.name))
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
                _ = try await client.call(destination: Self.name, path: MPRISNames.objectPath,
                                          interface: Self.playerInterface, member: "Stop")
            }
            let settled = await waitUntil { endpoint.isNameSettled && endpoint.busName == nil }
            XCTAssertTrue(settled, "cycle \(cycle): the name was not given back")
            if !settled { return }
        }
        load.stop()

        let allSeen = await waitUntil { monitor.releases(of: Self.name).count == Self.cycles }
        XCTAssertTrue(allSeen, "dbus-monitor saw \(monitor.releases(of: Self.name).count) releases, not \(Self.cycles)")
        // A stop right after the start may be read before `Playing` ever goes out; a cycle that
        // waits for the name always announces it.
        XCTAssertGreaterThanOrEqual(monitor.playbackStatuses.filter { $0 == "Playing" }.count, 2 * Self.cycles / 3,
                                    "is the monitor's output parsed?")
        XCTAssertEqual(monitor.releasesWithoutStopped(of: Self.name), [])
    }

    /// `close(completion:)` completes once the bus has answered the release: the name is gone by
    /// then. Closing again completes at once.
    func testCloseCompletesOnceTheBusTookTheRelease() async throws {
        let player = try makePlayer()
        player.start()
        let acquired = try await waitForName(present: true)
        XCTAssertTrue(acquired)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            player.endpoint.close { done.resume() }
        }
        let names = try await busNames()
        XCTAssertFalse(names.contains(Self.name), "closed, yet the bus still lists the name")
        XCTAssertNil(player.endpoint.busName)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            player.endpoint.close { done.resume() }
        }
    }
}
