import DBus
import Foundation
import TestSupport
import XCTest

/// Escape sequences and newlines in file names and title tags never reach the player's terminal
/// or log lines (no terminal-title change, no cleared screen, no forged line), while MPRIS carries
/// the title exactly as the file has it: it is data.
final class PlayTerminalTextTests: PlayerTestCase {
    private static let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2J\nforged"

    func testHostileNamesAndTitlesAreEscapedOnStderrButRawInMetadata() async throws {
        let title = "evil" + Self.hostile
        let titled = try track("titled\(Self.hostile).wav", seconds: 4)
        try Self.appendTitle(title, to: titled)
        let untitled = try track("untitled\(Self.hostile).wav", seconds: 0.2)
        let garbage = path("garbage\(Self.hostile).wav")
        try Data("RIFF not really".utf8).write(to: URL(fileURLWithPath: garbage))
        let watcher = try connect()
        let player = try play(["--device", "null", "--name", "esc", garbage, untitled, titled])
        try await waitUntil("the titled track plays", timeout: .seconds(5)) {
            (try? await self.metadataTitle(on: watcher)) == title
        }
        player.signal(SIGTERM)
        let status = await player.waitForExit()
        XCTAssertEqual(status, 0, player.stderr)
        let output = player.stdout + player.stderr
        XCTAssertFalse(output.unicodeScalars.contains("\u{1B}"), "no ESC byte: \(output.debugDescription)")
        XCTAssertFalse(output.unicodeScalars.contains("\u{07}"), "no BEL byte: \(output.debugDescription)")
        for line in player.stderr.split(separator: "\n") {
            XCTAssertTrue(line.hasPrefix("mprisd play: ") || ["▶", "⏸", "■"].contains(where: line.hasPrefix),
                          "every line is the player's own: \(line.debugDescription)")
        }
        XCTAssertTrue(player.stderr.contains("garbage\\x1b]0;pwned\\x07\\x1b[2J\\x0aforged"), player.stderr)
        XCTAssertTrue(player.stderr.contains("▶ untitled\\x1b]0;pwned"), player.stderr)
        XCTAssertTrue(player.stderr.contains("▶ evil\\x1b]0;pwned"), player.stderr)
    }

    /// `xesam:title` as a D-Bus client reads it.
    private func metadataTitle(on connection: Connection) async throws -> String? {
        let reply = try await connection.call(destination: "org.mpris.MediaPlayer2.esc",
                                              path: try ObjectPath("/org/mpris/MediaPlayer2"),
                                              interface: "org.freedesktop.DBus.Properties", member: "Get",
                                              [.string("org.mpris.MediaPlayer2.Player"), .string("Metadata")])
        guard case .variant(.dictionary(_, _, let entries))? = reply.first else { return nil }
        for entry in entries where entry.key == .string("xesam:title") {
            if case .variant(.string(let title)) = entry.value { return title }
        }
        return nil
    }

    /// Appends a RIFF `LIST`/`INFO` chunk with `INAM` (the title libsndfile reads) to a WAV file.
    private static func appendTitle(_ title: String, to path: String) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func u32(_ value: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(value).littleEndian) { Array($0) } }
        var text = Array(title.utf8) + [0]
        if text.count % 2 == 1 { text.append(0) }
        let info = Array("INFO".utf8) + Array("INAM".utf8) + u32(text.count) + text
        bytes += Array("LIST".utf8) + u32(info.count) + info
        bytes.replaceSubrange(4..<8, with: u32(bytes.count - 8))
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}
