import AudioPolicyClient
import AudioPolicyDaemon
import Foundation
import MPRISDirectory
import XCTest

/// Players whose audio-server streams have been gone for the limit leave their audio context
/// (`PlayerRanking+Streams`), with times and without a bus.
final class PlayerRankingStreamsTests: XCTestCase {
    private let mpv = "org.mpris.MediaPlayer2.mpv"
    private let tab = "org.mpris.MediaPlayer2.firefox.instance_1_23"
    private let limit: TimeInterval = 600
    private let start = Date(timeIntervalSince1970: 1_000_000)

    private func at(_ seconds: TimeInterval) -> Date { start + seconds }

    /// A player that played with a stream and was paused by the user at 10 s.
    private func pausedWithStream(_ name: String, owner: String = ":1.1") -> PlayerRanking {
        var ranking = PlayerRanking(streamsGoneLimit: limit)
        ranking.appeared(name, owner: owner, status: "Playing", at: at(0))
        ranking.streamsChanged(name, present: true, at: at(1))
        ranking.statusChanged(name, status: "Paused", at: at(10))
        return ranking
    }

    func testTheDocumentedLimitIsTenMinutes() {
        XCTAssertEqual(PlayerRanking.streamsGoneLimit, 600)
        XCTAssertEqual(PlayerRanking().goneLimit, 600)
    }

    func testAPausedPlayerWhoseStreamsAreGoneForTheLimitLeavesItsContext() throws {
        var ranking = pausedWithStream(mpv)
        XCTAssertNil(ranking.nextStreamsDeadline, "its stream is there: no deadline")
        ranking.streamsChanged(mpv, present: false, at: at(20))
        XCTAssertEqual(ranking.nextStreamsDeadline, at(20 + limit))
        XCTAssertEqual(ranking.expireStreams(at: at(20 + limit - 1)), [])
        XCTAssertEqual(ranking.active?.busName, mpv, "a coffee break: still on the keys")
        XCTAssertNotNil(ranking.listing().player(mpv)?.streamsGoneSince, "the clock shows while it runs")

        XCTAssertEqual(ranking.expireStreams(at: at(20 + limit)), [mpv])
        XCTAssertNil(ranking.active)
        XCTAssertNil(ranking.nextStreamsDeadline, "nothing left to wake up for")
        let row = try XCTUnwrap(ranking.listing().player(mpv))
        XCTAssertNil(row.rank)
        XCTAssertTrue(row.reason.hasPrefix("paused, its streams gone since "), row.reason)
        XCTAssertTrue(row.reason.hasSuffix(": in no audio context"), row.reason)
        XCTAssertEqual(row.streamsGoneSince, at(20).timeIntervalSince1970)
        XCTAssertEqual(row.since, at(20).timeIntervalSince1970)
    }

    func testItComesBackWhenItNextSaysPlaying() {
        var ranking = pausedWithStream(mpv)
        ranking.streamsChanged(mpv, present: false, at: at(20))
        ranking.expireStreams(at: at(20 + limit))
        ranking.streamsChanged(mpv, present: true, at: at(700))
        XCTAssertNil(ranking.active, "a stream back while Paused does not bring it back")
        XCTAssertTrue(ranking.listing().player(mpv)?.reason.contains("until it plays") ?? false)
        ranking.statusChanged(mpv, status: "Playing", at: at(710))
        XCTAssertEqual(ranking.active?.busName, mpv)
        XCTAssertEqual(ranking.listing().player(mpv)?.reason.hasPrefix("playing since "), true)
    }

    func testAPlayingPlayerWithNoStreamForTheLimitLeavesAndComesBackWithItsStream() {
        var ranking = PlayerRanking(streamsGoneLimit: limit)
        ranking.appeared(tab, owner: ":1.5", status: "Playing", at: at(0))
        ranking.streamsChanged(tab, present: true, at: at(1))
        ranking.streamsChanged(tab, present: false, at: at(5))
        XCTAssertEqual(ranking.expireStreams(at: at(5 + limit)), [tab])
        XCTAssertNil(ranking.active, "it says Playing, but nothing of it plays")
        XCTAssertTrue(ranking.listing().player(tab)?.reason.hasPrefix("playing, its streams gone since ") ?? false)
        ranking.streamsChanged(tab, present: true, at: at(900))
        XCTAssertEqual(ranking.active?.busName, tab, "it plays again: no other Playing will ever come")
    }

    func testAStreamBackBeforeTheLimitStopsTheClock() {
        var ranking = pausedWithStream(mpv)
        ranking.streamsChanged(mpv, present: false, at: at(20))
        ranking.streamsChanged(mpv, present: true, at: at(300))
        XCTAssertNil(ranking.nextStreamsDeadline)
        XCTAssertEqual(ranking.expireStreams(at: at(10_000)), [])
        XCTAssertEqual(ranking.active?.busName, mpv)
    }

    func testAPlayerNeverSeenWithAStreamIsNeverDropped() {
        var ranking = PlayerRanking(streamsGoneLimit: limit)
        ranking.appeared(mpv, owner: ":1.1", status: "Playing", at: at(0))
        ranking.streamsChanged(mpv, present: false, at: at(1))  // it plays straight to ALSA hw
        ranking.statusChanged(mpv, status: "Paused", at: at(10))
        XCTAssertNil(ranking.nextStreamsDeadline)
        XCTAssertEqual(ranking.expireStreams(at: at(10_000)), [])
        XCTAssertEqual(ranking.active?.busName, mpv)
        XCTAssertNil(ranking.listing().player(mpv)?.streamsGoneSince)
    }

    func testOnlyAStreamSinceItLastStartedPlayingPairsIt() {
        var ranking = pausedWithStream(mpv)
        ranking.streamsChanged(mpv, present: false, at: at(20))
        ranking.statusChanged(mpv, status: "Stopped", at: at(30))
        ranking.statusChanged(mpv, status: "Playing", at: at(40))
        XCTAssertNil(ranking.nextStreamsDeadline, "no stream since this start: nothing can be gone")
        XCTAssertEqual(ranking.expireStreams(at: at(10_000)), [])
        XCTAssertEqual(ranking.active?.busName, mpv)
    }

    func testUnknownStreamsStopTheClockAndItStartsAgainFromWhenTheyAreKnown() {
        var ranking = pausedWithStream(mpv)
        ranking.streamsChanged(mpv, present: false, at: at(20))
        ranking.streamsChanged(mpv, present: nil, at: at(30))  // the server went away
        XCTAssertNil(ranking.nextStreamsDeadline)
        ranking.streamsChanged(mpv, present: false, at: at(500))  // back, and the stream is not
        XCTAssertEqual(ranking.nextStreamsDeadline, at(500 + limit))
    }

    func testAPlayerPausedByThePolicyIsHeldInItsContext() {
        var ranking = PlayerRanking(streamsGoneLimit: limit)
        ranking.appeared(mpv, owner: ":1.1", status: "Playing", at: at(0))
        ranking.streamsChanged(mpv, present: true, at: at(1))
        ranking.statusChanged(mpv, status: "Paused", pausedBy: "session 3 (zoom)", at: at(10))
        ranking.streamsChanged(mpv, present: false, at: at(20))
        XCTAssertNil(ranking.nextStreamsDeadline, "the call holds it")
        XCTAssertEqual(ranking.expireStreams(at: at(10_000)), [])
        XCTAssertEqual(ranking.active?.busName, mpv)
        XCTAssertEqual(ranking.listing().player(mpv)?.reason.hasPrefix("paused by session 3 (zoom) at "), true)
    }

    func testTheOtherPlayerTakesTheKeysAndTheEarliestDeadlineComesFirst() {
        var ranking = pausedWithStream(mpv)
        ranking.appeared(tab, owner: ":1.5", status: "Playing", at: at(30))
        ranking.streamsChanged(tab, present: true, at: at(31))
        ranking.statusChanged(tab, status: "Paused", at: at(40))
        XCTAssertEqual(ranking.active?.busName, tab)
        ranking.streamsChanged(tab, present: false, at: at(50))
        ranking.streamsChanged(mpv, present: false, at: at(60))
        XCTAssertEqual(ranking.nextStreamsDeadline, at(50 + limit))
        XCTAssertEqual(ranking.expireStreams(at: at(50 + limit)), [tab])
        XCTAssertEqual(ranking.active?.busName, mpv, "the tab left; mpv still has a minute")
        XCTAssertEqual(ranking.nextStreamsDeadline, at(60 + limit))
    }

    func testAPinnedPlayerStaysPinned() throws {
        var ranking = pausedWithStream(mpv)
        try ranking.pin(mpv, at: at(15))
        ranking.streamsChanged(mpv, present: false, at: at(20))
        ranking.expireStreams(at: at(20 + limit))
        XCTAssertEqual(ranking.active?.busName, mpv, "the user's pin wins over any rule")
    }

    func testAnIgnoredPlayerHasNoDeadline() {
        var ranking = PlayerRanking(ignore: PlayerIgnoreList("firefox"), streamsGoneLimit: limit)
        ranking.appeared(tab, owner: ":1.5", status: "Playing", at: at(0))
        ranking.streamsChanged(tab, present: true, at: at(1))
        ranking.streamsChanged(tab, present: false, at: at(2))
        XCTAssertNil(ranking.nextStreamsDeadline, "never chosen anyway: nothing to wake up for")
    }
}

private extension PlayerListing {
    func player(_ busName: String) -> Player? { players.first { $0.busName == busName } }
}
