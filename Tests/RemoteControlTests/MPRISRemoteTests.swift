import DBus
import RemoteControl
import Synchronization
import TestSupport
import XCTest

/// `MPRISRemote`, the one faithful pause: a player whose Pause toggles (tidal-hifi#800) is sent
/// `Pause` only while it says `Playing`, so it is never started by a Pause — asked afresh each
/// time, on a real bus against a small player exported with the binding.
final class MPRISRemoteTests: BusTestCase {
    /// A player whose `Pause` toggles, counting the Pauses it got.
    private final class TogglingPlayer: Sendable {
        let status = Mutex("Playing")
        let pauses = Mutex(0)

        var interface: Interface {
            Interface(MPRISNames.playerInterface, methods: [
                .immediate("Pause") { [self] _ in
                    pauses.withLock { $0 += 1 }
                    status.withLock { $0 = $0 == "Playing" ? "Paused" : "Playing" }
                    return []
                },
            ], properties: [
                Property("PlaybackStatus", .string, get: { [self] in .string(status.withLock { $0 }) }),
            ])
        }
    }

    func testAPauseGoesOnlyToAPlayingPlayerAndNeverStartsATogglingOne() async throws {
        let player = TogglingPlayer()
        let server = try connect()
        _ = try server.export(MPRISNames.objectPath, interfaces: [player.interface])
        let remote = MPRISRemote(connection: try connect(), owner: server.uniqueName)

        let first = await pause(remote)
        XCTAssertEqual(first, .sent)
        XCTAssertEqual(player.status.withLock { $0 }, "Paused")
        // A second actor pausing the same player a moment later (WirePlumber 0.5 and the
        // daemon both seeing a device go): no second Pause, so it stays paused.
        let second = await pause(remote)
        XCTAssertEqual(second, .notPlaying("Paused"))
        XCTAssertEqual(player.pauses.withLock { $0 }, 1)
        XCTAssertEqual(player.status.withLock { $0 }, "Paused")
    }

    func testAPlayerThatIsGoneIsAFailureNotAPause() async throws {
        let remote = MPRISRemote(connection: try connect(), owner: ":1.9999", timeout: .seconds(2))
        let outcome = await pause(remote)
        guard case .failed = outcome else { return XCTFail("\(outcome)") }
    }

    private func pause(_ remote: MPRISRemote) async -> MPRISRemote.PauseOutcome {
        await withCheckedContinuation { continuation in
            remote.pauseIfPlaying { continuation.resume(returning: $0) }
        }
    }
}
