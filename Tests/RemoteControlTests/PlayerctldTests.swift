import DBus
import Foundation
import RemoteControl
import TestSupport
import XCTest

/// playerctld (field notes): the most recently active player wins; a player that leaves its audio
/// context is dropped.
final class PlayerctldTests: EndpointTestCase {
    private var daemon: BackgroundProcess?

    override func tearDown() {
        daemon?.stop()
        daemon = nil
        super.tearDown()
    }

    private func startPlayerctld() async throws {
        daemon = try BackgroundProcess(name: "playerctld", "/usr/bin/playerctld", [], environment: bus.environment)
        let up = try await waitForName("org.mpris.MediaPlayer2.playerctld", present: true)
        XCTAssertTrue(up)
    }

    /// playerctld's `PlayerNames` (most recently active first), as busctl prints it.
    private static func playerNames(_ environment: [String: String]) async throws -> String {
        let result = try await runProgram("/usr/bin/busctl", ["--user", "get-property",
                                                              "org.mpris.MediaPlayer2.playerctld",
                                                              "/org/mpris/MediaPlayer2",
                                                              "com.github.altdesktop.playerctld", "PlayerNames"],
                                          environment: environment, timeout: .seconds(10))
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testPlayerctldFollowsTheAudioContext() async throws {
        try await startPlayerctld()
        let player = try makePlayer()
        player.start()
        let acquired = try await waitForName(present: true)
        XCTAssertTrue(acquired)
        let environment = bus.environment
        let listed = await waitUntil {
            (try? await Self.playerNames(environment))?.contains(Self.name) == true
        }
        XCTAssertTrue(listed)
        // playerctld forwards to the active player.
        try await expectPlayerctl("status", player: "playerctld", prints: "Playing")
        try await playerctl("pause", player: "playerctld")
        XCTAssertEqual(player.calls, [.pause])

        player.endpoint.update { $0.playbackState = .stopped }
        let dropped = await waitUntil {
            (try? await Self.playerNames(environment)).map { !$0.contains(Self.name) && $0.hasPrefix("as") } == true
        }
        XCTAssertTrue(dropped)
    }
}
