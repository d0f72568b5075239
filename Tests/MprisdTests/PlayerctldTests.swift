import DBus
import Foundation
import TestSupport
import XCTest

/// Desktop consumers: playerctld follows the most recently active player; GNOME's keys send
/// PlayPause and Seek(−10 s / +45 s); KDE's send Pause only when Playing.
final class PlayerctldTests: PlayerTestCase {
    private func playerNames(_ connection: Connection) async throws -> [String] {
        let reply = try await connection.call(destination: "org.mpris.MediaPlayer2.playerctld",
                                              path: try ObjectPath("/org/mpris/MediaPlayer2"),
                                              interface: "org.freedesktop.DBus.Properties", member: "Get",
                                              [.string("com.github.altdesktop.playerctld"), .string("PlayerNames")])
        guard case .variant(let value)? = reply.first else { return [] }
        return try [String](dbusValue: value)
    }

    func testPlayerctldPicksThePlayerUpAndDropsItWhenItLeavesItsAudioContext() async throws {
        let watcher = try connect()
        let daemon = try BackgroundProgram("/usr/bin/playerctld", [], environment: bus.environment)
        defer { daemon.kill() }
        try await waitUntil("playerctld is on the bus") {
            try await watcher.listNames().contains("org.mpris.MediaPlayer2.playerctld")
        }
        let player = try play(["--device", "null", "--name", "focus", try track("a.wav", seconds: 5)])
        try await waitUntil("playerctld lists the player first") {
            try await self.playerNames(watcher).first == "org.mpris.MediaPlayer2.focus"
        }
        let viaDaemon = try await playerctl("-p", "playerctld", "metadata", "title")
        XCTAssertEqual(viaDaemon, "a", "playerctld proxies the active player")
        try await playerctl("-p", "focus", "stop")
        try await waitUntil("playerctld dropped it") {
            try await !self.playerNames(watcher).contains("org.mpris.MediaPlayer2.focus")
        }
        _ = await player.waitForExit()
    }

    func testGnomeAndKdeMediaKeys() async throws {
        let player = try play(["--device", "null", "--name", "keys", try track("long.wav", seconds: 60)])
        try await waitUntil("playing") { try await self.playerctl("-p", "keys", "status") == "Playing" }
        func send(_ member: String, _ arguments: [String] = []) async throws {
            let result = try await runProgram("/usr/bin/dbus-send", [
                "--session", "--print-reply", "--dest=org.mpris.MediaPlayer2.keys", "/org/mpris/MediaPlayer2",
                "org.mpris.MediaPlayer2.Player.\(member)",
            ] + arguments, environment: bus.environment)
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        // GNOME: the Play key is PlayPause; Forward is Seek(+45 s), Rewind Seek(−10 s).
        try await send("PlayPause")
        try await waitUntil("paused by PlayPause") { try await self.playerctl("-p", "keys", "status") == "Paused" }
        try await send("Seek", ["int64:45000000"])
        try await waitUntil("at 45 s") { (Double(try await self.playerctl("-p", "keys", "position")) ?? 0) >= 44.5 }
        try await send("Seek", ["int64:-10000000"])
        try await waitUntil("at 35 s") { abs((Double(try await self.playerctl("-p", "keys", "position")) ?? 0) - 35) < 0.5 }
        // KDE: Pause only when Playing — a Pause while paused changes nothing, never toggles.
        try await send("Pause")
        try await assertPlayer("keys", stays: "Paused", for: .milliseconds(200))  // Pause is never a toggle
        try await send("Play")
        try await waitUntil("playing again") { try await self.playerctl("-p", "keys", "status") == "Playing" }
        // SetPosition with a stale track id changes nothing.
        try await send("SetPosition", ["objpath:/org/mprisd/track/999", "int64:1000000"])
        let ignored = try await holds(for: .milliseconds(200)) { (Double(try await self.playerctl("-p", "keys", "position")) ?? 0) > 30 }
        XCTAssertTrue(ignored, "a stale track id is ignored")
        player.signal(SIGTERM)
        _ = await player.waitForExit()
    }
}
