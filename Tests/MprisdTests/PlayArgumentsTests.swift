import Foundation
import TestSupport
import XCTest

/// `mprisd play -- FILE`: after `--` every argument is a file, even one named like a flag.
final class PlayArgumentsTests: PlayerTestCase {
    func testAFileNamedLikeAFlagPlaysAfterDoubleDash() async throws {
        try track("-v.wav", seconds: 0.5)
        let script = "cd \"$1\" && exec \"$0\" play --device null --name dashes -- -v.wav"
        let player = try BackgroundProgram("/bin/sh", ["-c", script, Products.path("mprisd"), directory.path],
                                           environment: bus.environment.merging(userDirectories) { _, mine in mine })
        let status = await player.waitForExit(timeout: .seconds(15))
        XCTAssertEqual(status, 0, player.stderr)
        XCTAssertFalse(player.stderr.contains("skipping"), player.stderr)

        let refused = try await runProgram("/bin/sh", ["-c", "cd \"$1\" && exec \"$0\" play --device null -v.wav",
                                                       Products.path("mprisd"), directory.path],
                                           environment: bus.environment.merging(userDirectories) { _, mine in mine })
        XCTAssertEqual(refused.status, 64, "without --, -v.wav is an option")
        XCTAssertEqual(refused.stderr, "mprisd play: unknown option '-v.wav'\n")
    }
}
