import DBus
import Foundation
import TestSupport
import XCTest

/// Unplugging the headphones pauses `mprisd play` at once; plugging them in never does
/// (G-HEADPHONES-OUT, G-HEADPHONES-IN). The card is the fake ALSA control plugin of the tests; the
/// output is a `file` PCM over a real-time PulseAudio null sink, so what was played is captured.
final class PlayUnplugTests: PacedCardTestCase {
    /// The card plus `paced`: a capture that plays through PulseAudio in real time.
    private func environment(capture: String) throws -> [String: String] {
        try pacedEnvironment([("paced", capture)])
    }

    func testUnplugPausesAtOnceAndPlugInNeverDoes() async throws {
        let capture = path("played.raw")
        let player = try play(["--device", "paced", "--control", FakeSoundCard.control, "--name", "jack",
                               try track("long.wav", seconds: 30)],
                              environment: try environment(capture: capture))
        try await waitUntil("playing") { try await self.playerctl("-p", "jack", "status") == "Playing" }
        try await waitUntil("audio flows") { self.size(capture) > 100_000 }

        try card.setHeadphones(plugged: false)
        try await waitUntil("paused by the unplug", timeout: .seconds(2)) {
            try await self.playerctl("-p", "jack", "status") == "Paused"
        }
        let atPause = size(capture)
        let silent = await holds(for: .milliseconds(700)) { self.size(capture) == atPause }
        XCTAssertTrue(silent, "no samples written after the pause")
        let names = try await connect().listNames()
        XCTAssertTrue(names.contains("org.mpris.MediaPlayer2.jack"), "the endpoint stays so the keys can resume")

        try await playerctl("-p", "jack", "play")
        try await waitUntil("playing again") { try await self.playerctl("-p", "jack", "status") == "Playing" }
        try card.setHeadphones(plugged: true)
        try await assertPlayer("jack", stays: "Playing")  // plugging in never pauses
        // The player refills its deep buffer in bursts (BENCHMARKS.md, Issue 18): wait for the next.
        let grown = size(capture)
        let flows = await eventually(timeout: .seconds(5)) { self.size(capture) > grown }
        XCTAssertTrue(flows, "audio keeps flowing after the plug-in")

        player.signal(SIGTERM)
        let status = await player.waitForExit()
        XCTAssertEqual(status, 0, player.stderr)
    }

    func testAMissingControlDeviceIsAWarningAndPlaybackGoesOn() async throws {
        let player = try play(["--device", "null", "--control", "nosuchcard", "--name", "nocard",
                               try track("a.wav", seconds: 0.5)])
        let status = await player.waitForExit()
        XCTAssertEqual(status, 0, player.stderr)
        XCTAssertTrue(player.stderr.contains("route monitoring off"), player.stderr)
        XCTAssertTrue(player.stderr.contains("nosuchcard"), player.stderr)
    }
}
