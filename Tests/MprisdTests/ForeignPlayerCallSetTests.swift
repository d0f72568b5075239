import DBus
import Foundation
import TestSupport
import XCTest

/// Security: a foreign MPRIS player is someone else's program, and the daemon may only ever pause
/// it, resume what it paused and set its volume (issue 7). A recording player — every method and
/// property write it receives is written down — goes through a storm of calls, prompts and games;
/// the calls it got must be Pause, Play and Volume writes, nothing else.
final class ForeignPlayerCallSetTests: DaemonTestCase {
    func testAForeignPlayerIsOnlyEverPausedResumedAndVolumeSet() async throws {
        try await startDaemon()
        // Every method and every writable property of both interfaces, each call and write recorded.
        let player = try await FakeMPRISPlayer.start(on: try connect(), name: "recorder",
                                                     .init(status: "Playing", volume: .honest(0.8),
                                                           identity: .string("recorder"), complete: true))
        try await waitForStatus("the daemon tracks the recorder") { status in
            status.players.contains { $0.busName == "org.mpris.MediaPlayer2.recorder" && $0.status == "Playing" }
        }
        // A storm of what the policy reacts to: calls with and without notify-others, prompts that
        // duck, a game that mixes and one that does not, a music app of ours starting and stopping.
        let storms: [[String]] = [
            ["--category", "playAndRecord", "--mode", "voiceChat", "--notify-others", "--", "sleep", "0.3"],
            ["--category", "playback", "--mix", "--duck", "--", "sleep", "0.3"],
            ["--category", "playAndRecord", "--mode", "voiceChat", "--", "sleep", "0.3"],
            ["--category", "ambient", "--", "sleep", "0.2"],
            ["--category", "soloAmbient", "--", "sleep", "0.2"],
            ["--category", "playback", "--interrupt-spoken", "--", "sleep", "0.2"],
        ]
        for arguments in storms {
            // The player "plays" again before each round, announcing it as a real one would.
            player.set("Playing")
            try await waitForStatus("the daemon sees the recorder playing") { status in
                status.players.contains { $0.busName == "org.mpris.MediaPlayer2.recorder" && $0.status == "Playing" }
            }
            let program = try run(arguments)
            _ = await program.waitForExit()
        }
        let reached = await eventually { player.calls.elements.contains("Pause") && player.propertyWrites.elements.contains("Volume") }
        XCTAssertTrue(reached, "the storm reached the player")
        let methods = Set(player.calls.elements)
        let writes = Set(player.propertyWrites.elements)
        XCTAssertTrue(methods.isSubset(of: ["Pause", "Play"]), "only Pause and Play: \(methods)")
        XCTAssertTrue(writes.isSubset(of: ["Volume"]), "only Volume is written: \(writes)")
        XCTAssertTrue(methods.contains("Pause"), "the storm did reach the player: \(daemon?.stderr ?? "")")
        XCTAssertTrue(writes.contains("Volume"), "the prompt ducked it: \(daemon?.stderr ?? "")")
    }
}
