import DBus
import Foundation
import TestSupport
import XCTest

/// The arbiter's choice with real players on a private bus (issue 16): mpv (mpv-mpris), our own
/// `mprisd play`, and the fake player — through start, pause by the user, pause by a call, a
/// second player, a stopped one, a pinned one, an ignored one, and one whose name goes away.
final class DaemonArbiterTests: ArbiterTestCase {
    func testTheChoiceFollowsStartPauseASecondPlayerAndTheNameGoingAway() async throws {
        try await startDaemon()
        var listing = try await waitForActive(nil)
        XCTAssertTrue(listing.players.isEmpty)

        let mpv = try await startMPV()
        listing = try await waitForActive(mpv.busName)
        XCTAssertEqual(listing.active?.rank, 1)
        XCTAssertTrue(listing.active?.reason.hasPrefix("playing since ") ?? false, "\(listing.players)")

        try await mpv.pause()
        listing = try await waitForListing("mpv paused by the user, still active") {
            $0.active?.busName == mpv.busName && $0.active?.status == "Paused"
        }
        XCTAssertTrue(listing.active?.reason.hasPrefix("paused by the user at ") ?? false, "\(listing.players)")

        // Our own player ranks with the foreign one: it plays, so it is chosen.
        let second = try await startPlay(name: "second")
        listing = try await waitForActive("org.mpris.MediaPlayer2.second")
        XCTAssertEqual(listing.players.map(\.busName), ["org.mpris.MediaPlayer2.second", mpv.busName], "\(listing.players)")
        XCTAssertEqual(listing.players.map(\.rank), [1, 2])

        // Its name goes away (stopped: `mprisd play` leaves the bus): mpv, paused in its context, is back.
        _ = try await playerctl("-p", "second", "stop")
        _ = await second.waitForExit(timeout: .seconds(10))
        listing = try await waitForActive(mpv.busName)
        XCTAssertNil(listing.player("org.mpris.MediaPlayer2.second"))

        mpv.kill()
        try await waitForActive(nil)
        let result = try await control("play-pause")
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("no player is in an audio context"), result.stderr)
    }

    func testAPauseByACallKeepsPlayersInTheirContextAndSaysWho() async throws {
        try await startDaemon()
        let mpv = try await startMPV()
        let own = try await startPlay(name: "ownplayer")
        // Our player started last: it plays and mpv was paused for it (the policy, not the user).
        var listing = try await waitForListing("mpv paused by the policy for ownplayer") {
            $0.active?.busName == "org.mpris.MediaPlayer2.ownplayer" && $0.player(mpv.busName)?.status == "Paused"
        }
        let mpvReason = listing.player(mpv.busName)?.reason ?? ""
        XCTAssertTrue(mpvReason.hasPrefix("paused by ") && !mpvReason.hasPrefix("paused by the user"), mpvReason)

        let call = try run(["--category", "playAndRecord", "--mode", "voiceChat", "--", "sleep", "60"])
        listing = try await waitForListing("the call paused our player, which stays active") {
            $0.active?.busName == "org.mpris.MediaPlayer2.ownplayer" && $0.active?.status == "Paused"
        }
        let reason = listing.active?.reason ?? ""
        XCTAssertTrue(reason.hasPrefix("paused by ") && reason.contains("sleep"), "the call is named: \(reason)")
        XCTAssertEqual(listing.active?.rank, 1)
        XCTAssertEqual(listing.player(mpv.busName)?.rank, 2)
        call.kill()
        _ = own
    }

    func testAStoppedPlayerLeavesItsContextAndANeverPlayedOneNeverEntersIt() async throws {
        try await startDaemon()
        let idle = try await startFake("idletab", status: "Paused")
        let fake = try await startFake("fake", status: "Playing")
        var listing = try await waitForActive(fake.busName)
        XCTAssertNil(listing.player(idle.busName)?.rank, "paused but never seen playing")
        XCTAssertTrue(listing.player(idle.busName)?.reason.contains("never seen playing") ?? false, "\(listing.players)")

        try await call(fake, "Stop")
        listing = try await waitForActive(nil)
        XCTAssertTrue(listing.player(fake.busName)?.reason.hasPrefix("stopped at ") ?? false, "\(listing.players)")
        let result = try await control("play")
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(fake.calls, ["Stop"], "nothing reaches a player out of its context")
        XCTAssertEqual(idle.calls, [])
    }

    func testAPinnedPlayerWinsUntilUnpinnedAndNextCycles() async throws {
        try await startDaemon()
        let mpv = try await startMPV()
        let fake = try await startFake("pinme", status: "Paused")
        try await waitForActive(mpv.busName)

        var result = try await mprisd(["player", "pin", "pinme"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "pinned org.mpris.MediaPlayer2.pinme\n")
        let listing = try await waitForActive(fake.busName)
        XCTAssertEqual(listing.active?.pinned, true)
        XCTAssertTrue(listing.active?.reason.hasPrefix("pinned by the user") ?? false)

        result = try await control("next")
        XCTAssertEqual(result.status, 0, result.stderr)
        try await waitForCalls(fake, ["Next"])
        let still = try await mpv.playbackStatus()
        XCTAssertEqual(still, "Playing", "the keys reached the pinned player only")

        result = try await mprisd(["player", "unpin"])
        XCTAssertEqual(result.status, 0, result.stderr)
        try await waitForActive(mpv.busName)

        // pinme was never seen playing: `next` skips it (a Play meant for mpv would start it).
        result = try await mprisd(["player", "next"])
        XCTAssertEqual(result.stdout, "pinned \(mpv.busName)\n", "only mpv is in an audio context: \(result.stderr)")
        _ = try await mprisd(["player", "unpin"])
        // Once it played and was paused, it is in its context: `next` goes round both.
        try await call(fake, "Play")
        try await waitForListing("pinme plays") { $0.player(fake.busName)?.status == "Playing" }
        try await call(fake, "Pause")
        try await waitForListing("pinme is paused after playing") { $0.player(fake.busName)?.status == "Paused" }
        let first = try await mprisd(["player", "next"])
        let second = try await mprisd(["player", "next"])
        XCTAssertEqual(Set([first.stdout, second.stdout]), ["pinned org.mpris.MediaPlayer2.pinme\n", "pinned \(mpv.busName)\n"],
                       "round and round: \(first.stderr)\(second.stderr)")

        result = try await mprisd(["player", "pin", "nobody"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("no player named nobody"), result.stderr)
        // Issue 24: a name typed with ESC and BEL, quoted back by the daemon, is shown escaped.
        result = try await mprisd(["player", "pin", "\u{1B}]0;owned\u{07}"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("no player named \\x1b]0;owned\\x07"), result.stderr)
        XCTAssertFalse(result.stderr.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" }, result.stderr)

        // A pinned player whose name goes away takes its pin along.
        _ = try await mprisd(["player", "pin", "pinme"])
        try await waitForActive(fake.busName)
        fake.process.stop()
        try await waitForActive(mpv.busName)
    }

    func testAnIgnoredPlayerIsNeverChosenNorControlled() async throws {
        // The config file's key, as a user sets it.
        let directory = path("config") + "/mprisd"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try "daemon.ignore-players = browsertab\n".write(toFile: directory + "/config", atomically: true, encoding: .utf8)
        try await startDaemon()
        await waitForDaemonLog("players ignored by the media keys: browsertab")
        let tab = try await startFake("browsertab", status: "Playing")
        let listing = try await waitForActive(nil)
        XCTAssertEqual(listing.player(tab.busName)?.ignoredBy, "browsertab")
        XCTAssertNil(listing.player(tab.busName)?.rank)

        var result = try await control("pause")
        XCTAssertEqual(result.status, 1, result.stderr)
        result = try await mprisd(["player", "pin", tab.busName])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("ignored"), result.stderr)
        XCTAssertEqual(tab.calls, [], "an ignored player gets nothing")
    }

    func testPlayerctldIsAProxyNeverChosen() async throws {
        try await startDaemon()
        let mpv = try await startMPV()
        let proxy = try BackgroundProgram("/usr/bin/playerctld", [], environment: environment())
        defer { proxy.kill() }
        // playerctld mirrors mpv (Playing) and appears after it: were it a player, it would win.
        let listing = try await waitForListing("playerctld listed, ignored") {
            $0.player("org.mpris.MediaPlayer2.playerctld")?.ignoredBy == "playerctld"
        }
        XCTAssertEqual(listing.active?.busName, mpv.busName)
        XCTAssertEqual(listing.player("org.mpris.MediaPlayer2.playerctld")?.reason, "ignored: a proxy of other players")
    }

    func testACallThroughPlayerctldPausesATogglingPlayerOnce() async throws {
        try await startDaemon()
        let proxy = try BackgroundProgram("/usr/bin/playerctld", [], environment: environment())
        defer { proxy.kill() }
        try await waitForListing("playerctld is on the bus") { $0.player("org.mpris.MediaPlayer2.playerctld") != nil }
        let fake = try await startFake("toggling", status: "Playing", "toggling")
        try await waitForActive(fake.busName)
        let call = try run(["--category", "playAndRecord", "--mode", "voiceChat", "--", "sleep", "60"])
        defer { call.kill() }
        try await waitForCalls(fake, ["Pause"])
        // A second Pause (the daemon's, forwarded by playerctld) would start it again.
        let once = await holds(for: .seconds(1)) { fake.calls == ["Pause"] }
        XCTAssertTrue(once, "\(fake.calls)\ndaemon: \(daemon?.stderr.suffix(2000) ?? "")")
        let now = try await status(of: fake)
        XCTAssertEqual(now, "Paused")
    }

    func testPlayersTextShowsTheRankAndWhy() async throws {
        try await startDaemon()
        let mpv = try await startMPV()
        try await waitForActive(mpv.busName)
        let result = try await mprisd(["players"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("* 1 \(mpv.busName)  Playing  playing since "), result.stdout)
    }
}
