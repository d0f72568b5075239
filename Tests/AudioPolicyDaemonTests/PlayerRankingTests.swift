import AudioPolicyClient
import AudioPolicyDaemon
import Foundation
import MPRISDirectory
import XCTest

/// The arbiter's choice (`PlayerRanking`) through every transition, without a bus.
final class PlayerRankingTests: XCTestCase {
    private let mpv = "org.mpris.MediaPlayer2.mpv"
    private let vlc = "org.mpris.MediaPlayer2.vlc"
    private let tab = "org.mpris.MediaPlayer2.firefox.instance_1_23"
    private var clock = Date(timeIntervalSince1970: 1_000_000)

    private func tick() -> Date {
        clock += 1
        return clock
    }

    private func active(_ ranking: PlayerRanking) -> String? { ranking.active?.busName }

    func testAPlayerFoundPlayingIsActiveAndOneFoundPausedIsNot() {
        var ranking = PlayerRanking()
        ranking.appeared(vlc, owner: ":1.2", status: "Paused", at: tick())
        XCTAssertNil(ranking.active, "paused but never seen playing: in no audio context")
        ranking.appeared(mpv, owner: ":1.1", status: "Playing", at: tick())
        XCTAssertEqual(ranking.active, ActivePlayer(busName: mpv, owner: ":1.1"))
    }

    func testPauseByTheUserKeepsThePlayerInItsContext() {
        var ranking = PlayerRanking()
        ranking.appeared(mpv, owner: ":1.1", status: "Playing", at: tick())
        ranking.statusChanged(mpv, status: "Paused", at: tick())
        XCTAssertEqual(active(ranking), mpv)
        XCTAssertEqual(ranking.listing().players.first?.reason.hasPrefix("paused by the user at "), true)
    }

    func testPauseByThePolicyKeepsThePlayerAndSaysWho() {
        var ranking = PlayerRanking()
        ranking.appeared(mpv, owner: ":1.1", status: "Playing", at: tick())
        ranking.statusChanged(mpv, status: "Paused", pausedBy: "session 3 (sleep)", at: tick())
        XCTAssertEqual(active(ranking), mpv)
        let row = ranking.listing().players.first
        XCTAssertEqual(row?.rank, 1)
        XCTAssertEqual(row?.reason.hasPrefix("paused by session 3 (sleep) at "), true, "\(String(describing: row))")
    }

    func testAStoppedPlayerLeavesItsContext() {
        var ranking = PlayerRanking()
        ranking.appeared(mpv, owner: ":1.1", status: "Playing", at: tick())
        ranking.statusChanged(mpv, status: "Stopped", at: tick())
        XCTAssertNil(ranking.active)
        ranking.statusChanged(mpv, status: "Paused", at: tick())
        XCTAssertNil(ranking.active, "Paused after Stopped (a track loaded) is not back in context")
        XCTAssertNil(ranking.listing().players.first?.rank)
    }

    func testTheMostRecentlyStartedOfSeveralPlayingWins() {
        var ranking = PlayerRanking()
        ranking.appeared(mpv, owner: ":1.1", status: "Playing", at: tick())
        ranking.appeared(vlc, owner: ":1.2", status: "Playing", at: tick())
        XCTAssertEqual(active(ranking), vlc)
        ranking.statusChanged(mpv, status: "Paused", at: tick())
        ranking.statusChanged(mpv, status: "Playing", at: tick())
        XCTAssertEqual(active(ranking), mpv, "restarted: the latest start")
        XCTAssertEqual(ranking.listing().players.map(\.rank), [1, 2])
    }

    func testAPlayingPlayerBeatsAMoreRecentlyPausedOne() {
        var ranking = PlayerRanking()
        ranking.appeared(mpv, owner: ":1.1", status: "Playing", at: tick())
        ranking.appeared(vlc, owner: ":1.2", status: "Playing", at: tick())
        ranking.statusChanged(vlc, status: "Paused", at: tick())
        XCTAssertEqual(active(ranking), mpv)
        ranking.statusChanged(mpv, status: "Paused", at: tick())
        XCTAssertEqual(active(ranking), mpv, "both paused: the one paused last")
        ranking.statusChanged(mpv, status: "Stopped", at: tick())
        XCTAssertEqual(active(ranking), vlc, "mpv stopped: vlc is still in its context")
    }

    func testARepeatedPauseKeepsTheFirstCause() {
        var ranking = PlayerRanking()
        ranking.appeared(mpv, owner: ":1.1", status: "Playing", at: tick())
        ranking.statusChanged(mpv, status: "Paused", pausedBy: "the screen lock", at: tick())
        ranking.statusChanged(mpv, status: "Paused", at: tick())
        XCTAssertEqual(ranking.entries[mpv]?.pausedBy, "the screen lock")
    }

    func testAVanishedPlayerIsForgottenAndItsPinEnds() throws {
        var ranking = PlayerRanking()
        ranking.appeared(mpv, owner: ":1.1", status: "Playing", at: tick())
        ranking.appeared(vlc, owner: ":1.2", status: "Paused", at: tick())
        try ranking.pin("vlc", at: tick())
        XCTAssertEqual(active(ranking), vlc, "pinned, though never seen playing")
        ranking.vanished(vlc)
        XCTAssertNil(ranking.pinned)
        XCTAssertEqual(active(ranking), mpv)
        ranking.vanished(mpv)
        XCTAssertNil(ranking.active)
        XCTAssertTrue(ranking.listing().players.isEmpty)
    }

    func testANewOwnerOfTheNameIsANewPlayer() throws {
        var ranking = PlayerRanking()
        ranking.appeared(mpv, owner: ":1.1", status: "Playing", at: tick())
        try ranking.pin(mpv, at: tick())
        ranking.appeared(mpv, owner: ":1.9", status: "Paused", at: tick())
        XCTAssertNil(ranking.pinned, "the pin was on the old owner")
        XCTAssertNil(ranking.active, "the new owner never played")
    }

    func testAPinWinsOverAPlayingPlayerUntilUnpinned() throws {
        var ranking = PlayerRanking()
        ranking.appeared(mpv, owner: ":1.1", status: "Playing", at: tick())
        ranking.appeared(vlc, owner: ":1.2", status: "Stopped", at: tick())
        let pinned = try ranking.pin("org.mpris.MediaPlayer2.vlc", at: tick())
        XCTAssertEqual(pinned.busName, vlc)
        XCTAssertEqual(active(ranking), vlc)
        let first = ranking.listing().players.first
        XCTAssertEqual(first?.pinned, true)
        XCTAssertEqual(first?.rank, 1)
        XCTAssertEqual(first?.reason.hasPrefix("pinned by the user"), true)
        ranking.unpin()
        XCTAssertEqual(active(ranking), mpv)
        XCTAssertThrowsError(try ranking.pin("nobody", at: tick())) { error in
            XCTAssertEqual(error as? PlayerRanking.PinError, .unknown("nobody"))
        }
    }

    func testIgnoredPlayersAreNeverChosenNorPinned() {
        var ranking = PlayerRanking(ignore: PlayerIgnoreList("firefox, org.mpris.MediaPlayer2.vlc"))
        ranking.appeared(tab, owner: ":1.3", status: "Playing", at: tick())
        ranking.appeared(vlc, owner: ":1.2", status: "Playing", at: tick())
        XCTAssertNil(ranking.active)
        XCTAssertThrowsError(try ranking.pin(tab, at: tick())) { error in
            XCTAssertEqual(error as? PlayerRanking.PinError, .ignored(tab, rule: "firefox"))
        }
        ranking.appeared(mpv, owner: ":1.1", status: "Paused", at: tick())
        ranking.statusChanged(mpv, status: "Playing", at: tick())
        XCTAssertEqual(active(ranking), mpv)
        let rows = ranking.listing().players
        XCTAssertEqual(rows.map(\.busName), [mpv, tab, vlc])
        XCTAssertEqual(rows.map(\.ignoredBy), [nil, "firefox", "vlc"])
        XCTAssertEqual(rows[1].reason, "ignored by rule 'firefox'")
    }

    func testIgnoreRulesMatchNamesAndTheirInstancesOnly() {
        let list = PlayerIgnoreList("firefox,,  chromium ")
        XCTAssertEqual(list.rules, ["firefox", "chromium"])
        XCTAssertEqual(list.rule(ignoring: "org.mpris.MediaPlayer2.firefox"), "firefox")
        XCTAssertEqual(list.rule(ignoring: "org.mpris.MediaPlayer2.chromium.instance42"), "chromium")
        XCTAssertNil(list.rule(ignoring: "org.mpris.MediaPlayer2.firefoxy"))
        XCTAssertEqual(PlayerIgnoreList().rule(ignoring: "org.mpris.MediaPlayer2.playerctld"), "playerctld",
                       "playerctld mirrors another player: never ranked itself")
        XCTAssertNil(PlayerIgnoreList.problem(in: "firefox, chromium"))
        XCTAssertNotNil(PlayerIgnoreList.problem(in: "fire fox"))
        XCTAssertNotNil(PlayerIgnoreList.problem(in: "firefox,.x"))
    }

    func testNextCyclesOnlyThroughPlayersInAnAudioContext() throws {
        var ranking = PlayerRanking(ignore: PlayerIgnoreList("firefox"))
        XCTAssertThrowsError(try ranking.next(at: tick())) { XCTAssertEqual($0 as? PlayerRanking.PinError, .noPlayers) }
        ranking.appeared(vlc, owner: ":1.2", status: "Stopped", at: tick())
        let idle = "org.mpris.MediaPlayer2.idle"
        ranking.appeared(idle, owner: ":1.4", status: "Paused", at: tick())  // never seen playing
        XCTAssertThrowsError(try ranking.next(at: tick()), "a stopped player and an idle one are no choice") {
            XCTAssertEqual($0 as? PlayerRanking.PinError, .noPlayerInContext)
        }
        ranking.appeared(mpv, owner: ":1.1", status: "Playing", at: tick())
        ranking.appeared(tab, owner: ":1.3", status: "Playing", at: tick())  // ignored
        let paused = "org.mpris.MediaPlayer2.paused"
        ranking.appeared(paused, owner: ":1.5", status: "Playing", at: tick())
        ranking.statusChanged(paused, status: "Paused", at: tick())  // played, then paused: in context
        XCTAssertEqual(active(ranking), mpv)
        var seen: [String] = []
        for _ in 0..<4 { seen.append(try ranking.next(at: tick()).busName) }
        XCTAssertEqual(seen, [paused, mpv, paused, mpv], "the players in context, round and round; never vlc, idle or the tab")
    }

    func testTheListingIsAStableJSONDocument() throws {
        var ranking = PlayerRanking()
        ranking.appeared(mpv, owner: ":1.1", status: "Playing", at: tick())
        let listing = ranking.listing()
        let decoded = try PlayerListing.decode(json: listing.json())
        XCTAssertEqual(decoded, listing)
        XCTAssertEqual(decoded.active?.busName, mpv)
        XCTAssertEqual(decoded.players.first?.since, clock.timeIntervalSince1970)
        XCTAssertTrue(listing.text().hasPrefix("* 1 org.mpris.MediaPlayer2.mpv  Playing  playing since "), listing.text())
    }
}
