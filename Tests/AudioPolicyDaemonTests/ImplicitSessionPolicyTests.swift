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

/// The implicit sessions (issue 15) decided in this process, so that ThreadSanitizer sees their
/// threads (scripts/tsan.sh): the policy's `SerialThread`, the engine's event thread handing
/// session events back, the callers feeding inventory changes, silent mode and rules, and the
/// readers of the status. A real `AudioSystem` engine and a real `ChangeJournal`; the server's
/// events are given as values, and the link is never connected, so every mute or duck shows in
/// the journal (written before the link refuses it) and in the reports. The same behaviour with
/// real servers and the daemon as its own process: Tests/MprisdTests/Implicit*Tests.swift.
///
/// The streams carry no properties, so they have no restore key: an undo the link refuses is
/// crossed out of the journal at once (nothing left to repair), which is how an undo shows here.
final class ImplicitSessionPolicyTests: ImplicitSessionPolicyTestCase {
    // MARK: Calls

    func testAZoomCaptureMutesAnotherAppsMusicUntilItEnds() throws {
        let harness = try start([Self.jukebox])
        defer { harness.policy.stop(patience: .milliseconds(10)) }
        try waitUntil("the music's implicit session is active") { self.app("jukebox", in: harness)?.state == "active" }
        XCTAssertFalse(isMuted(Self.jukebox, in: harness.journal), "nothing muted before the call")

        harness.feed([Self.jukebox, Self.zoom])
        try waitUntil("the music's mute journaled") { self.isMuted(Self.jukebox, in: harness.journal) }
        try waitUntil("the status says so") { self.app("jukebox", in: harness)?.state == "interrupted (muted)" }
        let call = try XCTUnwrap(app("ZOOM VoiceEngine", in: harness), "\(harness.policy.appReport())")
        XCTAssertEqual(call.appClass, "call")
        XCTAssertEqual(call.reason, "name table: ZOOM VoiceEngine")
        XCTAssertEqual(call.state, "active")
        XCTAssertEqual(harness.policy.streamReport()[Self.jukebox.id]?.action, "muted (interrupted)")
        XCTAssertTrue(lines.elements.contains { $0.contains("sink-input #1 mute refused by the server (interrupted)") },
                      "the mute went to the link after it was journaled")

        harness.feed([Self.jukebox])
        try waitUntil("the mute crossed out of the journal") { !self.isMuted(Self.jukebox, in: harness.journal) }
        XCTAssertTrue(lines.elements.contains { $0.contains("sink-input #1 mute not undone, refused by the server (interruption ended)") },
                      "the undo went to the link")
        try waitUntil("the status no longer says muted") { self.app("jukebox", in: harness)?.state == "active" }
        XCTAssertNil(harness.policy.streamReport()[Self.jukebox.id]?.action)
        let gone = try XCTUnwrap(harness.policy.appReport().first { $0.application == "ZOOM VoiceEngine" })
        XCTAssertFalse(gone.present)
        XCTAssertEqual(gone.state, "gone")

        // The music's session is active in the engine again (the interruption made it inactive):
        // the next call mutes it again.
        try waitUntil("the music's session active in the engine again") {
            harness.system.engine.activeSessions.contains { harness.sessions.label(of: $0)?.hasPrefix("jukebox") == true }
        }
        var next = Self.zoom
        next.id.index = 2
        harness.feed([Self.jukebox, next])
        try waitUntil("the next call mutes the music again") { self.isMuted(Self.jukebox, in: harness.journal) }
    }

    func testANavigationPromptDucksTheOtherStreamWhileItPlays() throws {
        let harness = try start([Self.jukebox])
        defer { harness.policy.stop(patience: .milliseconds(10)) }
        try waitUntil("the music's implicit session is active") { self.app("jukebox", in: harness)?.state == "active" }

        harness.feed([Self.jukebox, Self.navigator])
        try waitUntil("the music's duck journaled") { self.duck(of: Self.jukebox, in: harness.journal) != nil }
        let lowered = try XCTUnwrap(duck(of: Self.jukebox, in: harness.journal))
        XCTAssertEqual(lowered.found, Self.full)
        XCTAssertEqual(lowered.set, Self.full.scaled(by: StreamPolicy.duckRatio))
        try waitUntil("the status says ducked") { self.app("jukebox", in: harness)?.state == "active, ducked" }
        XCTAssertEqual(app("navigator", in: harness)?.appClass, "prompt")
        XCTAssertEqual(app("navigator", in: harness)?.reason, "role: navigation")
        XCTAssertNil(duck(of: Self.navigator, in: harness.journal), "the prompt itself is not ducked")
        XCTAssertFalse(isMuted(Self.jukebox, in: harness.journal), "a prompt ducks the music, it does not mute it")

        harness.feed([Self.jukebox])
        try waitUntil("the duck crossed out of the journal") { self.duck(of: Self.jukebox, in: harness.journal) == nil }
        XCTAssertTrue(lines.elements.contains { $0.contains("sink-input #1 volume not undone, refused by the server (ducking ended") },
                      "the undo went to the link")
        try waitUntil("the status no longer says ducked") { self.app("jukebox", in: harness)?.state == "active" }
        XCTAssertNil(harness.policy.streamReport()[Self.jukebox.id]?.action)
    }

    // MARK: Protected streams and silent mode

    func testAScreenReaderIsNeverMutedByACall() throws {
        let harness = try start([Self.jukebox, Self.orca])
        defer { harness.policy.stop(patience: .milliseconds(10)) }
        try waitUntil("the screen reader ducks the music") { self.duck(of: Self.jukebox, in: harness.journal) != nil }

        harness.feed([Self.jukebox, Self.orca, Self.zoom])
        try waitUntil("the call mutes the music") { self.isMuted(Self.jukebox, in: harness.journal) }
        // The engine interrupts the screen reader's session like any other: only the stream
        // policy keeps its stream untouched.
        try waitUntil("the engine interrupted the screen reader") {
            self.app("orca", in: harness)?.state.hasPrefix("interrupted") == true
        }
        harness.settle()
        XCTAssertEqual(app("orca", in: harness)?.state, "interrupted", "not '(muted)'")
        XCTAssertFalse(isMuted(Self.orca, in: harness.journal), "\(harness.journal.currentStreams)")
        XCTAssertNil(duck(of: Self.orca, in: harness.journal))
        XCTAssertNil(harness.policy.streamReport()[Self.orca.id]?.action)
        XCTAssertFalse(lines.elements.contains { $0.contains("sink-input #3 mute") }, "no mute of the screen reader was sent")
    }

    func testANotificationSoundIsMutedInSilentModeOnly() throws {
        let harness = try start([Self.jukebox, Self.notifier])
        defer { harness.policy.stop(patience: .milliseconds(10)) }
        try waitUntil("the notification's session is active") { self.app("notifier", in: harness)?.state == "active" }
        XCTAssertEqual(app("notifier", in: harness)?.appClass, "systemSound")
        harness.settle()
        XCTAssertFalse(isMuted(Self.notifier, in: harness.journal), "heard while silent mode is off")
        XCTAssertTrue(harness.journal.currentStreams.isEmpty, "\(harness.journal.currentStreams)")

        harness.system.setSilentMode(true)
        try waitUntil("muted in silent mode") { self.isMuted(Self.notifier, in: harness.journal) }
        try waitUntil("the status says so") {
            self.app("notifier", in: harness)?.state == "active, silenced by silent mode"
        }
        harness.settle()
        XCTAssertFalse(isMuted(Self.jukebox, in: harness.journal), "music that mixes is not silenced")

        harness.system.setSilentMode(false)
        try waitUntil("unmuted when silent mode ends") { !self.isMuted(Self.notifier, in: harness.journal) }
        try waitUntil("the status says active") { self.app("notifier", in: harness)?.state == "active" }
        XCTAssertNil(harness.policy.streamReport()[Self.notifier.id]?.action)
    }

    // MARK: Rules

    func testARuleIgnoringTheCallAppEndsTheCallAndItsMute() throws {
        let harness = try start([Self.jukebox, Self.zoom])
        defer { harness.policy.stop(patience: .milliseconds(10)) }
        try waitUntil("the call mutes the music") { self.isMuted(Self.jukebox, in: harness.journal) }
        let number = try XCTUnwrap(app("ZOOM VoiceEngine", in: harness)?.session)
        let call = try XCTUnwrap(harness.system.engine.activeSessions.first {
            harness.sessions.label(of: $0)?.hasPrefix("ZOOM VoiceEngine") == true
        }, "the call's session is active in the engine")

        let rules = AppRules(parsing: "# not a call\napp \"ZOOM VoiceEngine\" = ignore\n", path: directory + "/apps")
        XCTAssertEqual(rules.problems, [])
        harness.policy.setRules(rules)
        try waitUntil("the mute crossed out of the journal") { !self.isMuted(Self.jukebox, in: harness.journal) }
        try waitUntil("the music's session is active again") { self.app("jukebox", in: harness)?.state == "active" }
        let ignored = try XCTUnwrap(app("ZOOM VoiceEngine", in: harness))
        XCTAssertEqual(ignored.appClass, "ignore")
        XCTAssertEqual(ignored.reason, "rule line 2")
        XCTAssertEqual(ignored.state, "ignored")
        XCTAssertNil(ignored.session)
        XCTAssertTrue(lines.elements.contains { $0.contains("implicit session \(number) ended") })
        XCTAssertNotEqual(harness.system.engine.session(call)?.isActive, true, "the call's session ended")
    }

    // MARK: Threads

    /// Inventory changes from several threads at once, silent mode and the rules changing, the
    /// reports read meanwhile; then the policy stops. The test ThreadSanitizer must pass.
    func testChangesFromManyThreadsLeaveAConsistentStateAndStopUndoesEverything() throws {
        let harness = try start([Self.jukebox])
        try waitUntil("the music's implicit session is active") { self.app("jukebox", in: harness)?.state == "active" }
        let feeders = 4
        let rounds = 60
        let done = Mutex(false)
        let problems = Mutex<[String]>([])
        let threads = ThreadGroup()

        // Each feeder's changes go on from the one before, whichever thread made it, as the
        // link's do (`lastFed`, taken while the change is queued): the policy finds what vanished
        // from a change's `previous`. Each brings its own app and takes its last one away, and
        // makes one of the shared apps come and go; a stream that comes back is a new one (the
        // server never gives an index twice).
        let shared = [Self.zoom, Self.navigator, Self.orca, Self.notifier]
        for feeder in 0..<feeders {
            threads.start("feeder \(feeder)") {
                for round in 0..<rounds {
                    let beep = AudioStream(id: StreamID(.playback, UInt32(1000 * (feeder + 1) + round)),
                                           applicationName: "beep \(feeder)", processID: Int32(4_600_000 + feeder),
                                           role: round % 3 == 0 ? "event" : nil, isCorked: round % 4 == 3, volume: Self.full)
                    let app = shared[feeder % shared.count]
                    let present = (round + feeder) % (feeder + 2) == 0
                    harness.lastFed.withLock { last in
                        var next = last
                        next.streams = next.streams.filter { $0.value.processID != beep.processID && $0.value.processID != app.processID }
                        next.streams[beep.id] = beep
                        if present {
                            var again = app
                            again.id.index = UInt32(10_000 * (feeder + 1) + round)
                            next.streams[again.id] = again
                        }
                        harness.policy.inventoryChanged(InventoryChange(kind: .updated, previous: last, current: next))
                        last = next
                    }
                }
            }
        }
        threads.start("silent mode") {
            for round in 0..<(rounds * 2) { harness.system.setSilentMode(round % 2 == 0) }
        }
        threads.start("rules") {
            let ignoring = AppRules(parsing: "app \"ZOOM VoiceEngine\" = ignore\napp jukebox = media\n", path: "apps")
            for round in 0..<10 { harness.policy.setRules(round % 2 == 0 ? ignoring : AppRules()) }
        }
        threads.start("status") {
            var reads = 0
            while !done.withLock({ $0 }) || reads < 50 {
                let found = Self.inconsistencies(in: harness.policy.appReport())
                _ = harness.policy.streamReport()
                if !found.isEmpty { problems.withLock { $0 += found } }
                reads += 1
            }
        }
        threads.waitForAll(except: "status")
        done.withLock { $0 = true }
        threads.waitForAll()
        XCTAssertEqual(problems.withLock { $0 }, [], "the status was consistent while it changed")

        // The last word on everything: silent mode off, no rules, and once that is settled (an
        // interruption that ended is seen before the next call begins: see the report) a call
        // during the music.
        harness.system.setSilentMode(false)
        harness.policy.setRules(AppRules())
        harness.feed([Self.jukebox, Self.notifier])
        harness.settle()
        harness.feed([Self.jukebox, Self.zoom, Self.notifier])
        try waitUntil("the music muted by the call") {
            self.isMuted(Self.jukebox, in: harness.journal) && self.app("jukebox", in: harness)?.state == "interrupted (muted)"
        }
        harness.settle()
        let report = harness.policy.appReport()
        XCTAssertEqual(Self.inconsistencies(in: report), [])
        XCTAssertEqual(Set(report.filter(\.present).map(\.application)), ["jukebox", "ZOOM VoiceEngine", "notifier"],
                       "\(report)")
        XCTAssertEqual(report.first { $0.application == "ZOOM VoiceEngine" }?.state, "active")
        XCTAssertEqual(report.first { $0.application == "ZOOM VoiceEngine" }?.appClass, "call")
        XCTAssertTrue(report.filter { !$0.present }.allSatisfy { $0.state == "gone" && $0.streams.isEmpty })
        let active = harness.system.engine.activeSessions
        XCTAssertTrue(active.contains { harness.sessions.label(of: $0)?.hasPrefix("ZOOM VoiceEngine") == true },
                      "the call's session is active in the engine")
        let changed = harness.policy.streamReport().filter { $0.value.action != nil }
        XCTAssertEqual(Set(changed.keys), Set(harness.journal.currentStreams.map(\.stream)),
                       "the report and the journal agree on what is changed")

        let before = lines.elements.count
        harness.policy.stop(patience: .milliseconds(10))
        XCTAssertEqual(harness.system.engine.activeSessions, [], "every implicit session ended")
        XCTAssertEqual(harness.system.engine.pendingActivations, [])
        XCTAssertTrue(harness.policy.streamReport().allSatisfy { $0.value.action == nil }, "nothing left changed")
        // The link refuses every undo: what it refused stays journaled for the next daemon, and
        // every entry left had its undo sent.
        let sent = Array(lines.elements.dropFirst(before))
        for entry in harness.journal.currentStreams {
            let what = entry.kind == .volume ? "volume" : "mute"
            XCTAssertTrue(sent.contains { $0.contains("\(entry.stream) \(what) not undone, refused by the server") },
                          "\(entry) was undone on stop: \(sent)")
        }
        XCTAssertTrue(isMuted(Self.jukebox, in: harness.journal), "the music's mute, refused, stays journaled")
        // Stopped: later inputs are dropped.
        let journaled = harness.journal.currentStreams
        harness.feed([Self.jukebox, Self.navigator])
        harness.system.setSilentMode(true)
        harness.system.waitForDelivery()
        XCTAssertEqual(harness.journal.currentStreams, journaled)
        XCTAssertEqual(harness.system.engine.activeSessions, [])
    }

    /// What is wrong with a status of the apps: an app listed twice as present, a present app
    /// without streams or without a state, a gone app that says otherwise.
    private static func inconsistencies(in report: [PolicyStatus.App]) -> [String] {
        var problems: [String] = []
        var present: Set<String> = []
        for row in report {
            let name = "\(row.application) (pid \(row.pid.map(String.init) ?? "-"))"
            if row.present {
                if !present.insert(name).inserted { problems.append("\(name) listed twice") }
                if row.streams.isEmpty { problems.append("\(name) present without streams") }
                if row.state.isEmpty { problems.append("\(name) without a state") }
                if row.session == nil, row.appClass != "ignore", row.state != "no session (records only)",
                   !row.state.hasPrefix("no session yet (") {
                    problems.append("\(name) without a session says '\(row.state)'")
                }
            } else if row.state != "gone" || row.session != nil {
                problems.append("\(name) gone says '\(row.state)', session \(row.session.map(String.init) ?? "-")")
            }
        }
        return problems
    }
}



/// Named threads of one test, started at once and waited for (`Thread`: each its own kernel
/// thread, so the policy's inputs really come from several at a time).
private final class ThreadGroup: Sendable {
    private let running = Mutex<[String: DispatchSemaphore]>([:])

    func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let finished = DispatchSemaphore(value: 0)
        running.withLock { $0[name] = finished }
        let thread = Thread {
            body()
            finished.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Waits (at most a minute each) for every thread but `except` to finish.
    func waitForAll(except: String? = nil) {
        let waited = running.withLock { running in running.filter { $0.key != except } }
        for (name, finished) in waited {
            if finished.wait(timeout: .now() + 60) == .timedOut { XCTFail("thread \(name) did not finish") }
            _ = running.withLock { $0.removeValue(forKey: name) }
        }
    }
}
