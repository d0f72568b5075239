import AudioServer
@testable import AudioPolicyDaemon
import XCTest

/// Which players have playback streams (`PlayerStreamPairing`): the process-tree rule, pure.
final class PlayerStreamPairingTests: XCTestCase {
    private let browser = "org.mpris.MediaPlayer2.chromium.instance100"
    private let mpv = "org.mpris.MediaPlayer2.mpv"
    private let launcher = "org.mpris.MediaPlayer2.launcher"

    func testAStreamOfADescendantIsItsPlayersAndTheNearestOwnerWins() {
        var pairing = PlayerStreamPairing(connected: true)
        pairing.pids = [launcher: 10, browser: 100, mpv: 200]
        // The browser's audio process (101) under the browser (100) under the launcher (10).
        pairing.chains = [StreamID(.playback, 1): [101, 100, 10]]
        let presence = pairing.presence(of: [browser, mpv, launcher])
        XCTAssertEqual(presence[browser], .some(true))
        XCTAssertEqual(presence[mpv], .some(false))
        XCTAssertEqual(presence[launcher], .some(false), "the nearest owner has it, not every ancestor")
    }

    func testUnknownWithoutAServerOrAProcess() {
        var pairing = PlayerStreamPairing(connected: true)
        pairing.pids = [mpv: 200]
        pairing.chains = [StreamID(.playback, 1): [200]]
        XCTAssertEqual(pairing.presence(of: [browser])[browser], .some(nil), "its process is not known yet")
        pairing.connected = false
        XCTAssertEqual(pairing.presence(of: [mpv])[mpv], .some(nil), "no server: nothing is known to be gone")
    }

    func testAStreamWithoutAProcessIsNobodys() {
        var pairing = PlayerStreamPairing(connected: true)
        pairing.pids = [mpv: 200]
        pairing.chains = [StreamID(.playback, 1): []]
        XCTAssertEqual(pairing.presence(of: [mpv])[mpv], .some(false))
    }
}
