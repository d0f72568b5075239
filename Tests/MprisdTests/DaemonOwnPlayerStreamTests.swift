import Foundation
import TestSupport
import XCTest

/// A session of our API claims its own streams: `mprisd play` through the server's ALSA plugin is
/// never an app of its own (an implicit session), not even while a restarted daemon waits for it to
/// register again, and the daemon knows where it is audible — so a sink it plays on going away is
/// its device loss.
final class DaemonOwnPlayerStreamTests: StreamTestCase {
    func testAPlayersOwnStreamIsItsSessionsAcrossADaemonRestartOnPulseAudio() async throws {
        try await ownStreamStaysTheSessions(.pulseAudio)
    }

    func testAPlayersOwnStreamIsItsSessionsAcrossADaemonRestartOnPipeWire() async throws {
        try await ownStreamStaysTheSessions(.pipeWire)
    }

    private func ownStreamStaysTheSessions(_ kind: AudioServerKind) async throws {
        let server = try await startPulse(kind)
        let first = try await startStreamDaemon()
        let player = try play(["--device", "pulse", "--name", "survivor", try track("survivor.wav", seconds: 60)],
                              environment: serverVariables)
        try await waitForStatus("the player's session is audible on the default sink", timeout: .seconds(15)) { status in
            status.session(named: "survivor")?.audibleOn == [server.sinkName]
        }

        first.signal(SIGTERM)
        let stopped = await first.waitForExit()
        XCTAssertEqual(stopped, 0, first.stderr)
        try await startStreamDaemon()
        try await waitForStatus("registered again, its stream its own", timeout: .seconds(15)) { status in
            status.session(named: "survivor")?.audibleOn == [server.sinkName]
        }
        let status = try await busStatus()
        XCTAssertEqual(status.apps?.filter(\.present).map(\.application) ?? [], [], "\(status)")
        XCTAssertFalse(daemon?.stderr.contains("implicit session") ?? true, daemon?.stderr ?? "")
        XCTAssertTrue(player.isRunning, player.stderr)
    }
}
