import Foundation
import TestSupport
import XCTest

/// File names are bytes: names that are not valid UTF-8 (byte 0xFF) play, named on the command
/// line and found in a folder, and are shown with U+FFFD.
final class PlayFileNameBytesTests: PlayerTestCase {
    func testNamesThatAreNotUTF8PlayFromTheCommandLineAndFromAFolder() async throws {
        try FileManager.default.createDirectory(atPath: path("folder"), withIntermediateDirectories: true)
        try rename(try track("a.wav", seconds: 0.3), toBytes: Array(path("folder/a").utf8) + [0xFF] + Array(".wav".utf8))
        try rename(try track("b.wav", seconds: 0.3), toBytes: Array(path("b").utf8) + [0xFF] + Array(".wav".utf8))
        // A `String` cannot carry byte 0xFF to the player: the shell builds the argument.
        let script = #"exec "$0" play --device null --name bytes "$(printf '%s/b\377.wav' "$1")" "$1/folder""#
        var environment = bus.environment.merging(userDirectories) { _, mine in mine }
        environment["LC_ALL"] = "C.UTF-8"
        let player = try BackgroundProgram("/bin/sh", ["-c", script, Products.path("mprisd"), directory.path],
                                           environment: environment)
        let status = await player.waitForExit()
        XCTAssertEqual(status, 0, player.stderr)
        XCTAssertFalse(player.stderr.contains("skipping"), player.stderr)
        XCTAssertTrue(player.stderr.contains("▶ b\u{FFFD}  0:00"), "the argument plays, shown with U+FFFD:\n\(player.stderr)")
        XCTAssertTrue(player.stderr.contains("▶ a\u{FFFD}  0:00"), "the folder's file plays, shown with U+FFFD:\n\(player.stderr)")
    }

    private func rename(_ from: String, toBytes target: [UInt8]) throws {
        let cTarget = target.map { CChar(bitPattern: $0) } + [0]
        guard Foundation.rename(from, cTarget) == 0 else { throw TestSupportError("rename: errno \(errno)") }
    }
}
