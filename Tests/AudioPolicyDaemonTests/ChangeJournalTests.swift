@testable import AudioPolicyDaemon
import Foundation
@testable import PolicyJournal
import SessionCore
import Synchronization
@testable import SystemContext
import XCTest

/// The journal of changes made to other programs: exact round trips, one entry per kind and
/// player, the file gone when nothing is left, damaged lines skipped; and the decisions that
/// write to it (written before the change, crossed out when undone, final pauses never).
final class ChangeJournalTests: XCTestCase {
    private var directory: String!
    private var file: StateFile { StateFile(path: directory + "/state/mprisd/journal") }
    private let mpv = "org.mpris.MediaPlayer2.mpv"

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "mprisd-journal-\(UUID().uuidString.prefix(8))"
    }

    override func tearDown() {
        if let directory { try? FileManager.default.removeItem(atPath: directory) }
    }

    func testEntriesRoundTripExactly() {
        let entries = [
            JournalEntry(player: mpv, owner: ":1.7", change: .volume(found: 0.1 + 0.2, set: (0.1 + 0.2) * 0.3)),
            JournalEntry(player: "org.mpris.MediaPlayer2.vlc.instance42", owner: ":1.8", change: .pause(cause: ":1.12")),
            JournalEntry(player: mpv, owner: ":1.7", change: .pause(cause: nil)),
        ]
        let journal = ChangeJournal(file: file, entries: entries, log: { XCTFail($0) })
        XCTAssertEqual(journal.current, entries)
        XCTAssertEqual(ChangeJournal.read(file, log: { XCTFail($0) }), entries, "the exact doubles come back")
    }

    func testOneEntryPerKindAndPlayerAndTheFileGoesWhenEmpty() {
        let journal = ChangeJournal(file: file, log: { XCTFail($0) })
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path))
        journal.record(JournalEntry(player: mpv, owner: ":1.7", change: .volume(found: 0.8, set: 0.24)))
        journal.record(JournalEntry(player: mpv, owner: ":1.7", change: .volume(found: 0.5, set: 0.15)))
        journal.record(JournalEntry(player: mpv, owner: ":1.7", change: .pause(cause: ":1.9")))
        XCTAssertEqual(ChangeJournal.read(file, log: { XCTFail($0) }).map(\.change),
                       [.volume(found: 0.5, set: 0.15), .pause(cause: ":1.9")])
        journal.forget(.volume, player: mpv, owner: ":1.7")
        XCTAssertEqual(ChangeJournal.read(file, log: { XCTFail($0) }).map(\.kind), [.pause])
        journal.forgetAll(player: mpv, owner: ":1.7")
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path), "an empty journal is no file")
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: file.directory)) ?? []
        XCTAssertEqual(leftovers.filter { $0.hasPrefix(".journal") }, [], "no temporary file left behind")
    }

    /// A write that fails (here: the journal's path is a directory, which `rename` cannot
    /// replace) is reported by `record`, leaves the entries as they were, and shows as `problem`
    /// until a write succeeds again (issue 24: the change is then not made).
    func testAnEntryThatCannotBeWrittenIsRefusedAndLeavesTheJournalAsItWas() throws {
        let logged = Mutex<[String]>([])
        let journal = ChangeJournal(file: file, log: { line in logged.withLock { $0.append(line) } })
        let kept = JournalEntry(player: mpv, owner: ":1.7", change: .pause(cause: ":1.9"))
        XCTAssertTrue(journal.record(kept))
        XCTAssertNil(journal.problem)
        try FileManager.default.removeItem(atPath: file.path)
        try FileManager.default.createDirectory(atPath: file.path + "/blocked", withIntermediateDirectories: true)

        XCTAssertFalse(journal.record(JournalEntry(player: mpv, owner: ":1.7", change: .volume(found: 0.8, set: 0.24))))
        XCTAssertEqual(journal.current, [kept], "the refused entry is not kept")
        XCTAssertFalse(journal.record(StreamJournalEntry(cookie: 1, index: 2, key: .none, change: .mute)))
        XCTAssertEqual(journal.currentStreams, [])
        XCTAssertTrue(journal.problem?.contains("cannot replace \(file.path)") == true, journal.problem ?? "no problem")
        XCTAssertEqual(logged.withLock { $0.count }, 2, "each failure reported")

        try FileManager.default.removeItem(atPath: file.path)
        XCTAssertTrue(journal.record(JournalEntry(player: mpv, owner: ":1.7", change: .volume(found: 0.8, set: 0.24))))
        XCTAssertNil(journal.problem, "writable again")
        XCTAssertEqual(ChangeJournal.read(file, log: { XCTFail($0) }).map(\.kind), [.pause, .volume])
    }

    /// The daemon's journal is made before its name is ours (the stream policy and the status
    /// hold it) and opened after: until then it neither touches a predecessor's file nor takes an
    /// entry — a change asked for meanwhile is refused, so it is not made (issue 23's linear
    /// assembly without late binding).
    func testAnUnopenedJournalLeavesThePredecessorsFileAndRefusesEntriesUntilOpened() throws {
        let left = JournalEntry(player: mpv, owner: ":1.7", change: .volume(found: 0.8, set: 0.24))
        _ = ChangeJournal(file: file, entries: [left], log: { XCTFail($0) })
        let before = try String(contentsOfFile: file.path, encoding: .utf8)

        let journal = ChangeJournal(unopened: file, log: { XCTFail($0) })
        let asked = JournalEntry(player: mpv, owner: ":1.9", change: .pause(cause: ":1.12"))
        XCTAssertFalse(journal.record(asked), "refused before open")
        journal.forgetAll(player: mpv, owner: ":1.7")
        XCTAssertEqual(try String(contentsOfFile: file.path, encoding: .utf8), before, "the predecessor's file untouched")
        XCTAssertEqual(journal.current, [])
        XCTAssertEqual(journal.problem, "not open yet")

        journal.open(entries: [left], streams: [])
        XCTAssertNil(journal.problem)
        XCTAssertTrue(journal.record(asked))
        XCTAssertEqual(ChangeJournal.read(file, log: { XCTFail($0) }), [left, asked])
        journal.open(entries: [], streams: [])
        XCTAssertEqual(journal.current, [left, asked], "opened once")
    }

    func testDamagedLinesAreReportedAndSkipped() throws {
        try StateFile.makeDirectory(file.directory)
        let text = """
            # comment
            volume \(mpv) :1.7 0.8 0.24
            volume \(mpv) :1.7 nan 0.24
            volume \(mpv) :1.7 -1 0.24
            pause \(mpv) :1.7
            pause org.mpris.MediaPlayer2.x;rm :1.7 -
            resume \(mpv) :1.7 -
            pause \(mpv) :1.7 -\r
            """
        try text.write(toFile: file.path, atomically: true, encoding: .utf8)
        let problems = Mutex<[String]>([])
        let entries = ChangeJournal.read(file) { line in problems.withLock { $0.append(line) } }
        XCTAssertEqual(entries, [JournalEntry(player: mpv, owner: ":1.7", change: .volume(found: 0.8, set: 0.24)),
                                 JournalEntry(player: mpv, owner: ":1.7", change: .pause(cause: nil))])
        let reported = problems.withLock { $0 }
        XCTAssertEqual(reported.map { $0.split(separator: ":").dropFirst().first.map(String.init) },
                       ["3", "4", "5", "6", "7"], "\(reported)")
    }

    /// A line with a 0xFF or a NUL byte costs that line only: the valid entries beside it are
    /// replayed (issue 24: one bad byte used to discard the whole journal, leaving mpv ducked).
    func testALineThatIsNotTextIsSkippedAloneAndTheRestIsKept() throws {
        try StateFile.makeDirectory(file.directory)
        var bytes = Array("volume \(mpv) :1.7 0.8 0.24\n".utf8)
        bytes += Array("pause org.mpris.MediaPlayer2.a :1.8 -".utf8) + [0xFF, 0x0A]
        bytes += Array("pause org.mpris.MediaPlayer2.b".utf8) + [0x00] + Array(" :1.9 -\n".utf8)
        bytes += Array("pause org.mpris.MediaPlayer2.c :1.10 -\n".utf8)
        XCTAssertTrue(FileManager.default.createFile(atPath: file.path, contents: Data(bytes)))
        let problems = Mutex<[String]>([])
        let entries = ChangeJournal.read(file) { line in problems.withLock { $0.append(line) } }
        XCTAssertEqual(entries, [JournalEntry(player: mpv, owner: ":1.7", change: .volume(found: 0.8, set: 0.24)),
                                 JournalEntry(player: "org.mpris.MediaPlayer2.c", owner: ":1.10", change: .pause(cause: nil))])
        let reported = problems.withLock { $0 }
        XCTAssertEqual(reported.map { $0.split(separator: ":").dropFirst().first.map(String.init) }, ["2", "3"], "\(reported)")
        XCTAssertTrue(reported.allSatisfy { $0.contains("not text") }, "\(reported)")
    }

    func testTheLockIsExclusiveAndReleasedWithItsHolder() throws {
        var first = JournalLock(beside: file)
        XCTAssertNotNil(first)
        let second = DispatchSemaphore(value: 0)
        Thread.detachNewThread { [file] in
            _ = JournalLock(beside: file)
            second.signal()
        }
        XCTAssertEqual(second.wait(timeout: .now() + 0.3), .timedOut, "held by the first")
        first = nil
        XCTAssertEqual(second.wait(timeout: .now() + 5), .success, "free once the first lets go")
    }

    /// Issue 24: a daemon refuses at once while a live daemon holds the lock (saying which, with
    /// its bus), and waits while a guard holds it (a replay takes a moment).
    func testADaemonIsRefusedByALiveDaemonAndWaitsForAGuard() throws {
        do {
            guard case .taken(let first) = JournalLock.forDaemon(bus: "bus-a", beside: file) else {
                return XCTFail("a free lock is taken")
            }
            XCTAssertEqual(JournalLock.lastHolder(beside: file), JournalLock.Holder(role: .daemon, pid: getpid(), bus: "bus-a"))
            guard case .heldByDaemon(let holder) = JournalLock.forDaemon(bus: "bus-b", beside: file) else {
                return XCTFail("refused while a daemon holds it")
            }
            XCTAssertEqual(holder.bus, "bus-a")
            withExtendedLifetime(first) {}
        }

        var guardLock = JournalLock(beside: file)
        XCTAssertEqual(JournalLock.lastHolder(beside: file)?.role, .journalGuard)
        let taken = DispatchSemaphore(value: 0)
        Thread.detachNewThread { [file] in
            if case .taken(let lock) = JournalLock.forDaemon(bus: "bus-b", beside: file) {
                withExtendedLifetime(lock) { _ = taken.signal() }
            }
        }
        XCTAssertEqual(taken.wait(timeout: .now() + 0.3), .timedOut, "waits while the guard replays")
        guardLock = nil
        XCTAssertEqual(taken.wait(timeout: .now() + 5), .success, "taken once the guard is done")
        XCTAssertNil(guardLock)
    }

    // MARK: The decisions that write to it

    private func playing() -> ForeignPlayer {
        var player = ForeignPlayer(busName: mpv, owner: ":1.9", token: 1)
        _ = player.load(MPRISPlayerProperties(playbackStatus: "Playing", canPause: true, canPlay: true, volume: 0.8))
        return player
    }

    func testADuckingIsWrittenDownBeforeTheVolumeIsLoweredAndCrossedOutWhenRestored() {
        var player = playing()
        XCTAssertEqual(player.handle(.ducking(.began), cause: ""), [.readVolume])
        XCTAssertEqual(player.volumeRead(0.8), [.journal(.volume(found: 0.8, set: 0.8 * 0.3)),
                                                 .send(.setVolume(0.8 * 0.3), reason: "ducked (was 0.8)"),
                                                 .readBackVolume])
        XCTAssertEqual(player.handle(.ducking(.ended), cause: ""),
                       [.send(.setVolume(0.8), reason: "ducking ended"), .unjournal(.volume)])
    }

    func testAResumablePauseIsWrittenDownAndAFinalOneIsNot() {
        var player = playing()
        XCTAssertEqual(player.handle(.interruption(.began(reason: .default)), cause: "call", pauseEntry: .pause(cause: ":1.4")),
                       [.journal(.pause(cause: ":1.4")), .send(.pause, reason: "interrupted by call")])
        XCTAssertEqual(player.handle(.interruption(.ended(options: .shouldResume)), cause: ""),
                       [.send(.play, reason: "interruption ended"), .unjournal(.pause)])

        var other = playing()
        XCTAssertEqual(other.handle(.interruption(.began(reason: .default)), cause: "org.mpris.MediaPlayer2.vlc"),
                       [.send(.pause, reason: "interrupted by org.mpris.MediaPlayer2.vlc")], "another player took over: final")
        XCTAssertEqual(other.undo(), [], "a clean stop does not resume a final pause")
    }

    func testTheUserPlayingCrossesThePauseOut() {
        var player = playing()
        _ = player.handle(.interruption(.began(reason: .default)), cause: "call", pauseEntry: .pause(cause: ":1.4"))
        XCTAssertEqual(player.update(MPRISPlayerProperties(playbackStatus: "Paused")), [.deactivate])
        XCTAssertEqual(player.update(MPRISPlayerProperties(playbackStatus: "Playing")), [.unjournal(.pause), .activate])
    }

    func testACleanStopUndoesTheDuckingAndResumesAResumablePause() {
        var player = playing()
        _ = player.handle(.ducking(.began), cause: "")
        _ = player.volumeRead(0.8)
        _ = player.handle(.interruption(.began(reason: .default)), cause: "call", pauseEntry: .pause(cause: ":1.4"))
        XCTAssertEqual(player.undo(), [.send(.setVolume(0.8), reason: "mprisd stopped"), .unjournal(.volume),
                                       .send(.play, reason: "mprisd stopped"), .unjournal(.pause)])
        XCTAssertEqual(player.undo(), [], "once")
    }

    func testAPlayerFoundPlayingAtStartIsAdopted() {
        var player = ForeignPlayer(busName: mpv, owner: ":1.9", token: 1, foundAtStart: true)
        XCTAssertEqual(player.load(MPRISPlayerProperties(playbackStatus: "Playing")), [.adopt])
        XCTAssertEqual(player.update(MPRISPlayerProperties(playbackStatus: "Paused")), [.deactivate])
        XCTAssertEqual(player.update(MPRISPlayerProperties(playbackStatus: "Playing")), [.activate], "ordinary from then on")
    }
}
