@testable import Player
import TestSupport
import XCTest


final class PlayQueueTests: XCTestCase {
    func testPlaysInOrderAndStopsAtTheEnd() {
        var queue = PlayQueue(items: ["a", "b", "c"])
        var played = [queue.current]
        while queue.advanceAtEndOfTrack() == .playNext { played.append(queue.current) }
        XCTAssertEqual(played, ["a", "b", "c"])
        XCTAssertFalse(queue.hasNext)
    }

    func testLoopTrackRepeatsButNextStillMovesOn() {
        var queue = PlayQueue(items: ["a", "b"], loop: .track)
        XCTAssertEqual(queue.advanceAtEndOfTrack(), .repeatCurrent)
        XCTAssertEqual(queue.current, "a")
        XCTAssertEqual(queue.advanceAtEndOfTrack(), .repeatCurrent)
        XCTAssertEqual(queue.current, "a")
        XCTAssertTrue(queue.next())
        XCTAssertEqual(queue.current, "b")
    }

    func testLoopPlaylistWrapsAround() {
        var queue = PlayQueue(items: ["a", "b"], loop: .playlist)
        XCTAssertEqual(queue.advanceAtEndOfTrack(), .playNext)
        XCTAssertEqual(queue.advanceAtEndOfTrack(), .playNext, "wrapping around is a move, not a repeat")
        XCTAssertEqual(queue.current, "a")
        XCTAssertEqual(queue.previous(elapsedSeconds: 0), .playPrevious)
        XCTAssertEqual(queue.current, "b")
    }

    func testTheEndOfTheQueueStops() {
        var queue = PlayQueue(items: ["a"])
        XCTAssertEqual(queue.advanceAtEndOfTrack(), .stop)
    }

    func testALoopingQueueOfOneTrackRepeatsIt() {
        var queue = PlayQueue(items: ["a"], loop: .playlist)
        XCTAssertEqual(queue.advanceAtEndOfTrack(), .repeatCurrent)
        XCTAssertEqual(queue.current, "a")
    }

    func testPreviousRestartsAfterThreeSecondsElseGoesBack() {
        var queue = PlayQueue(items: ["a", "b", "c"])
        _ = queue.next()
        XCTAssertEqual(queue.previous(elapsedSeconds: 3.5), .restartCurrent)
        XCTAssertEqual(queue.current, "b")
        XCTAssertEqual(queue.previous(elapsedSeconds: 1.0), .playPrevious)
        XCTAssertEqual(queue.current, "a")
        XCTAssertEqual(queue.previous(elapsedSeconds: 1.0), .restartCurrent, "first track without loop restarts")
    }

    func testUnplayableTracksAreSkippedAndTheQueueGoesOn() {
        var queue = PlayQueue(items: ["bad", "good", "bad2"])
        XCTAssertTrue(queue.skipUnplayable())
        XCTAssertEqual(queue.current, "good")
        XCTAssertTrue(queue.next())
        XCTAssertFalse(queue.skipUnplayable(), "nothing left after the last bad file")
    }

    func testShuffleIsAPermutationAndKeepsTheCurrentTrack() {
        var random = SeededRNG(seed: 7)
        var queue = PlayQueue(items: (0..<20).map { "t\($0)" }, shuffle: true, random: &random)
        XCTAssertEqual(Set(queue.order), Set(0..<20))
        XCTAssertNotEqual(queue.order, Array(0..<20))
        _ = queue.next()
        let playing = queue.current
        queue.setShuffle(false, random: &random)
        XCTAssertEqual(queue.current, playing)
        XCTAssertEqual(queue.order, Array(0..<20))
        queue.setShuffle(true, random: &random)
        XCTAssertEqual(queue.current, playing)
        XCTAssertEqual(Set(queue.order), Set(0..<20))
    }
}

final class StatusLineTests: XCTestCase {
    func testFormatsStateTitleAndTimes() {
        XCTAssertEqual(StatusLine.format(state: "Playing", title: "Song", artist: "Band", elapsed: 62.4, duration: 225),
                       "▶ Song — Band  1:02 / 3:45")
        XCTAssertEqual(StatusLine.format(state: "Paused", title: "Long", artist: nil, elapsed: 3725, duration: nil),
                       "⏸ Long  1:02:05")
        XCTAssertEqual(StatusLine.clock(.nan), "0:00")
    }

    func testTerminalOverwritesInPlaceAndPipesGetLines() {
        XCTAssertEqual(StatusLine(isTerminal: true).rendering("x"), "\r\u{1B}[Kx")
        XCTAssertEqual(StatusLine(isTerminal: false).rendering("x"), "x\n")
    }
}
