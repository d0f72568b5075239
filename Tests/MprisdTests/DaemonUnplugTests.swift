import DBus
import Foundation
import TestSupport
import XCTest

/// The daemon watches the jacks for everyone (`--control`): unplugging the headphones pauses both
/// an `mprisd play` (which registered with the daemon and so watches nothing itself) and a
/// foreign player; plugging them in resumes neither.
///
/// Both cannot be playing at the same moment: each is a non-mixable playback session, so the
/// second to start would interrupt the first. The test therefore unplugs twice, once under each.
final class DaemonUnplugTests: DaemonTestCase {
    func testUnplugPausesBothTheDaemonsPlayerAndAForeignPlayer() async throws {
        let card = try FakeSoundCard(FakeSoundCard.State(headphones: true, volume: (60, 60)))
        let alsa = ["ALSA_CONFIG_PATH": card.configPath]
        try await startDaemon(["--control", FakeSoundCard.control], environment: alsa)
        try await waitForStatus("the headphones are the route") { status in
            status.route.outputs.map(\.type) == ["headphones"]
        }

        // A foreign player.
        let mpv = try await startMPV()
        try card.setHeadphones(plugged: false)
        let mpvPaused = await mpv.waitForStatus("Paused", timeout: .seconds(2))
        XCTAssertTrue(mpvPaused, "the unplug pauses mpv: \(daemon?.stderr ?? "")")
        try await waitForStatus("the speaker is the route") { $0.route.outputs.map(\.type) == ["speaker"] }
        try card.setHeadphones(plugged: true)
        try await waitForStatus("the headphones are back") { $0.route.outputs.map(\.type) == ["headphones"] }
        try await assertStays(mpv, "Paused")

        // The daemon's own client: it has no route monitoring of its own with a daemon running.
        let player = try await startPlay(name: "jack", environment: alsa)
        XCTAssertFalse(player.stderr.contains("route monitoring"), player.stderr)
        try card.setHeadphones(plugged: false)
        try await waitUntil("the unplug pauses mprisd play", timeout: .seconds(2)) {
            try await self.playerctl("-p", "jack", "status") == "Paused"
        }
        try await assertStays(mpv, "Paused", for: .milliseconds(100))
        try card.setHeadphones(plugged: true)
        try await waitForStatus("the headphones are back") { $0.route.outputs.map(\.type) == ["headphones"] }
        try await assertPlayer("jack", stays: "Paused", for: .milliseconds(400))  // plugging in never resumes
        try await assertStays(mpv, "Paused", for: .milliseconds(100))
    }
}
