@testable import AppClassification
import AudioPolicyClient
@testable import AudioPolicyDaemon
import AudioServer
import Foundation
import PolicyJournal
import PolicyTestSupport
import SessionCore
import Synchronization
import SystemContext
import XCTest

/// The implicit sessions' times — a corked call's grace, a reopened microphone's, a browser
/// input's minimum time — crossed on a `VirtualClock`: a millisecond before each runs out and a
/// millisecond after, with no time waited (issue 26). The pure plan's arithmetic is
/// ImplicitPlanTests'; here the policy's own timer and decisions on its thread.
final class ImplicitSessionTimingTests: ImplicitSessionPolicyTestCase {
    /// A call app's capture corked (the user muting themselves) keeps the call for the corked
    /// grace and ends it once the grace has run out — to the millisecond, with no time waited.
    func testACorkedCallCaptureEndsItsCallOnlyOnceTheCorkedGraceHasRunOut() throws {
        let harness = try start([Self.jukebox])
        defer { harness.policy.stop(patience: .milliseconds(10)) }
        try waitUntil("the music's implicit session is active") { self.app("jukebox", in: harness)?.state == "active" }
        harness.feed([Self.jukebox, Self.zoom])
        try waitUntil("the call mutes the music") { self.isMuted(Self.jukebox, in: harness.journal) }

        var corked = Self.zoom
        corked.isCorked = true
        harness.feed([Self.jukebox, corked])
        harness.advance(by: CallTiming.standard.corkedGrace - .milliseconds(1))
        XCTAssertTrue(isMuted(Self.jukebox, in: harness.journal), "muting yourself is not hanging up")
        XCTAssertEqual(harness.clock.pendingJobs, 1, "one timer, for the grace's end")
        harness.advance(by: .milliseconds(2))
        try waitUntil("the call ended with the grace") { !self.isMuted(Self.jukebox, in: harness.journal) }
        XCTAssertEqual(harness.clock.pendingJobs, 0, "nothing left to wake up for")
    }

    /// Zoom switching microphones closes its capture and opens another: within the reopen grace
    /// the call goes on (the music stays muted throughout); closed past it, the call ends.
    func testAMicrophoneReopenedWithinTheGraceCarriesTheCallOn() throws {
        var timing = CallTiming.standard
        timing.reopenGrace = .milliseconds(500)
        let harness = try start([Self.jukebox], timing: timing)
        defer { harness.policy.stop(patience: .milliseconds(10)) }
        try waitUntil("the music's implicit session is active") { self.app("jukebox", in: harness)?.state == "active" }
        harness.feed([Self.jukebox, Self.zoom])
        try waitUntil("the call mutes the music") { self.isMuted(Self.jukebox, in: harness.journal) }

        harness.feed([Self.jukebox])
        harness.advance(by: .milliseconds(499))
        XCTAssertTrue(isMuted(Self.jukebox, in: harness.journal), "the microphone may reopen")
        var reopened = Self.zoom
        reopened.id.index = 2
        harness.feed([Self.jukebox, reopened])
        harness.advance(by: .seconds(1))
        XCTAssertTrue(isMuted(Self.jukebox, in: harness.journal), "the same call goes on: \(harness.journal.currentStreams)")
        XCTAssertFalse(lines.elements.contains { $0.contains("not undone") }, "the mute was never undone in between")

        harness.feed([Self.jukebox])
        harness.advance(by: .milliseconds(499))
        XCTAssertTrue(isMuted(Self.jukebox, in: harness.journal))
        harness.advance(by: .milliseconds(2))
        try waitUntil("the call ended once the grace ran out") { !self.isMuted(Self.jukebox, in: harness.journal) }
    }

    /// A browser's generic input is a call only once held with the browser's playback for the
    /// minimum time (voice search is not a call): one millisecond short, it is still a candidate.
    func testABrowsersInputBecomesACallOnlyAfterTheMinimumTime() throws {
        let playback = AudioStream(id: StreamID(.playback, 5), applicationName: "Chromium", binary: "chrome",
                                   processID: 4_500_041, volume: Self.full)
        let input = AudioStream(id: StreamID(.capture, 5), applicationName: "Chromium input", binary: "chrome",
                                processID: 4_500_040)
        let harness = try start([playback])
        defer { harness.policy.stop(patience: .milliseconds(10)) }
        harness.feed([playback, input])
        harness.advance(by: CallTiming.standard.heuristicMinimum - .milliseconds(1))
        let candidate = try XCTUnwrap(app("Chromium input", in: harness), "\(harness.policy.appReport())")
        XCTAssertNil(candidate.session, "not a call yet")
        XCTAssertTrue(candidate.state.hasPrefix("no session yet (heuristic call: held "), candidate.state)

        harness.advance(by: .milliseconds(2))
        try waitUntil("held for the minimum time: a call") { self.app("Chromium input", in: harness)?.session != nil }
        XCTAssertEqual(app("Chromium input", in: harness)?.state, "active")
    }

    /// A call that begins right after another ended — before the engine has handed the music
    /// its interruption's end — mutes the music all the same, and its end unmutes it: what
    /// ImplicitCallTests saw once on PipeWire (a microphone closed past the grace, reopened 60 ms
    /// after the first call ended, and the music left playing through the second call).
    func testACallBeginningAsTheLastOneEndsStillMutesTheMusic() throws {
        let harness = try start([Self.jukebox])
        defer { harness.policy.stop(patience: .milliseconds(10)) }
        try waitUntil("the music's implicit session is active") { self.app("jukebox", in: harness)?.state == "active" }
        for round in 1...20 {
            var call = Self.zoom
            call.id.index = UInt32(round)
            harness.feed([Self.jukebox, call])
            try waitUntil("call \(round) mutes the music") { self.isMuted(Self.jukebox, in: harness.journal) }
            harness.feed([Self.jukebox])
            var next = Self.zoom
            next.id.index = UInt32(100 + round)
            harness.feed([Self.jukebox, next])
            harness.settle()
            try waitUntil("the call begun at once keeps the music muted (round \(round)): \(harness.policy.appReport())") {
                self.isMuted(Self.jukebox, in: harness.journal)
            }
            harness.feed([Self.jukebox])
            try waitUntil("its end unmutes the music (round \(round))") { !self.isMuted(Self.jukebox, in: harness.journal) }
            try waitUntil("the music active again") { self.app("jukebox", in: harness)?.state == "active" }
        }
    }
}
