@testable import AudioPolicyDaemon
import AudioServer
import Foundation
import PolicyJournal
import PolicyTestSupport
import SessionCore
import Synchronization
import SystemContext
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// WirePlumber gives a new stream its role's remembered volume as a change just after the stream
/// appears — possibly after the daemon ducked it. That change is the user's volume for the role,
/// not a user's choice during the duck: the duck goes on from it (`StreamPolicy.serverSettling`).
/// Later changes are the user's, and theirs stays. Driven with the server's events as values, on
/// a real engine, with a link that is never connected (the decisions show in the journal).
final class StreamSettlingTests: XCTestCase {
    private static let cookie: UInt32 = 7
    private var directory = ""
    /// What the policy logged (its calls to the never-connected link are logged as refused).
    private let lines = EventRecord<String>()

    override func setUp() {
        directory = NSTemporaryDirectory() + "mprisd-settling-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    func testTheServersRestoredVolumeOnANewStreamIsDuckedAgain() throws {
        let (policy, journal, sessions) = try start(settling: .seconds(60))
        defer { policy.stop(patience: .milliseconds(10)) }
        let full = ChannelVolume(uniform: ChannelVolume.norm, count: 2)
        let restored = ChannelVolume(uniform: 52_429, count: 2)  // the role's remembered 80 %
        policy.inventoryChanged(change(.connected, from: inventory(), to: inventory(full)))
        try waitForDuck(journal, found: full)
        policy.inventoryChanged(change(.updated, from: inventory(full), to: inventory(full.scaled(by: StreamPolicy.duckRatio))))
        policy.inventoryChanged(change(.updated, from: inventory(full.scaled(by: StreamPolicy.duckRatio)), to: inventory(restored)))
        try waitForDuck(journal, found: restored)
        withExtendedLifetime(sessions) {}
    }

    func testTheServerPuttingBackTheVolumeWeDuckedFromIsDuckedAgain() throws {
        let (policy, journal, sessions) = try start(settling: .seconds(60))
        defer { policy.stop(patience: .milliseconds(10)) }
        let full = ChannelVolume(uniform: ChannelVolume.norm, count: 2)
        let ducked = full.scaled(by: StreamPolicy.duckRatio)
        policy.inventoryChanged(change(.connected, from: inventory(), to: inventory(full)))
        try waitForDuck(journal, found: full)
        policy.inventoryChanged(change(.updated, from: inventory(full), to: inventory(ducked)))
        // WirePlumber's restore-stream, late, with none of our requests on its way: back to
        // 100 %, the very value we ducked from.
        policy.inventoryChanged(change(.updated, from: inventory(ducked), to: inventory(full)))
        try waitUntil("the stream is ducked again") { self.lines.elements.contains { $0.contains("ducked again") } }
        try waitForDuck(journal, found: full)
        withExtendedLifetime(sessions) {}
    }

    func testOurOwnLateEventIsNotTakenForTheServers() throws {
        let (policy, journal, sessions) = try start(settling: .seconds(60))
        defer { policy.stop(patience: .milliseconds(10)) }
        let full = ChannelVolume(uniform: ChannelVolume.norm, count: 2)
        let ducked = full.scaled(by: StreamPolicy.duckRatio)
        let earlier = ChannelVolume(uniform: 40_000, count: 2)
        policy.inventoryChanged(change(.connected, from: inventory(), to: inventory(full)))
        try waitForDuck(journal, found: full)
        // Before our duck shows, the value we ducked from shows once more (the late event of an
        // earlier request of ours, an undo to the user's 100 %): an echo, not the server's.
        policy.inventoryChanged(change(.updated, from: inventory(earlier), to: inventory(full)))
        policy.inventoryChanged(change(.updated, from: inventory(full), to: inventory(ducked)))
        try waitForDuck(journal, found: full)
        policy.thread.enqueueAndWait {}  // every change above decided
        XCTAssertFalse(lines.elements.contains { $0.contains("ducked again") }, "no duck sent twice for our own late event")
        withExtendedLifetime(sessions) {}
    }

    func testADuckTheServerFoldedAwayIsSentAgainOnceItLanded() throws {
        let (policy, journal, sessions) = try start(settling: .seconds(60))
        defer { policy.stop(patience: .milliseconds(10)) }
        let full = ChannelVolume(uniform: ChannelVolume.norm, count: 2)
        let ducked = full.scaled(by: StreamPolicy.duckRatio)
        policy.inventoryChanged(change(.connected, from: inventory(), to: inventory(full)))
        try waitForDuck(journal, found: full)
        // The server accepted our duck, but its reads folded it together with restore-stream's
        // 100 %: no event shows it. The policy checks once the server answered.
        for _ in 0..<5 { policy.thread.enqueueAndWait { policy.verifyDuck(of: StreamID(.playback, 5), set: ducked) } }
        XCTAssertEqual(lines.elements.count(where: { $0.contains("ducked again: the server put") }), StreamPolicy.duckChecks,
                       "sent again, a bounded number of times")
        // Once an event shows it ducked, nothing more is sent.
        policy.inventoryChanged(change(.updated, from: inventory(full), to: inventory(ducked)))
        policy.thread.enqueueAndWait { policy.verifyDuck(of: StreamID(.playback, 5), set: ducked) }
        XCTAssertEqual(lines.elements.count(where: { $0.contains("ducked again: the server put") }), StreamPolicy.duckChecks)
        withExtendedLifetime(sessions) {}
    }

    func testAVolumeChangedOnceTheStreamSettledIsTheUsers() throws {
        let (policy, journal, sessions) = try start(settling: .zero)
        defer { policy.stop(patience: .milliseconds(10)) }
        let full = ChannelVolume(uniform: ChannelVolume.norm, count: 2)
        let chosen = ChannelVolume(uniform: 52_429, count: 2)
        policy.inventoryChanged(change(.connected, from: inventory(), to: inventory(full)))
        try waitForDuck(journal, found: full)
        policy.inventoryChanged(change(.updated, from: inventory(full), to: inventory(full.scaled(by: StreamPolicy.duckRatio))))
        policy.inventoryChanged(change(.updated, from: inventory(full.scaled(by: StreamPolicy.duckRatio)), to: inventory(chosen)))
        try waitUntil("the user's choice is kept: nothing journaled") { journal.currentStreams.isEmpty }
        withExtendedLifetime(sessions) {}
    }

    /// The first second is counted on the policy's clock: a change 1 ms before it ends is the
    /// server's (the duck goes on from it), 1 ms after it the user's (kept) — on a `VirtualClock`,
    /// with no time waited (issue 26).
    func testTheSettlingWindowEndsExactlyOnThePolicysClock() throws {
        let full = ChannelVolume(uniform: ChannelVolume.norm, count: 2)
        let chosen = ChannelVolume(uniform: 52_429, count: 2)
        let ducked = full.scaled(by: StreamPolicy.duckRatio)
        for (offset, isTheServers) in [(Duration.milliseconds(-1), true), (.milliseconds(1), false)] {
            let clock = VirtualClock()
            let (policy, journal, sessions) = try start(settling: StreamPolicy.defaultServerSettling, clock: clock)
            defer { policy.stop(patience: .milliseconds(10)) }
            policy.inventoryChanged(change(.connected, from: inventory(), to: inventory(full)))
            try waitForDuck(journal, found: full)
            policy.inventoryChanged(change(.updated, from: inventory(full), to: inventory(ducked)))
            policy.thread.enqueueAndWait {}
            clock.advance(by: StreamPolicy.defaultServerSettling + offset)
            policy.inventoryChanged(change(.updated, from: inventory(ducked), to: inventory(chosen)))
            if isTheServers {
                try waitForDuck(journal, found: chosen)
            } else {
                try waitUntil("the user's choice is kept: nothing journaled") { journal.currentStreams.isEmpty }
            }
            withExtendedLifetime(sessions) {}
        }
    }

    // MARK: Helpers

    /// A policy acting for a ducked playback session whose owner is this process.
    private func start(settling: Duration, clock: VirtualClock? = nil) throws -> (StreamPolicy, ChangeJournal, [AudioSession]) {
        let system = AudioSystem(conditions: SystemConditions(isOutputVolumeKnown: false))
        let music = try system.makeSession(SessionConfiguration(.playback))
        let ducker = try system.makeSession(SessionConfiguration(.playback, options: [.mixWithOthers, .duckOthers]))
        try music.setActive(true)
        try ducker.setActive(true)
        XCTAssertTrue(music.isDucked)
        let journal = ChangeJournal(file: StateFile(path: directory + "/journal"), log: { _ in })
        let link = AudioServerLink(address: .unknown(reason: "a test"), log: { _ in })
        let lines = self.lines
        let policy = try StreamPolicy(link: link, connection: nil, journal: journal, log: { lines.append($0) },
                                      serverSettling: settling, clock: clock?.policyClock)
        policy.manage(music, number: 1, label: "music", owner: ":1.1", pid: getpid())
        return (policy, journal, [music, ducker])
    }

    private func inventory(_ volume: ChannelVolume? = nil) -> AudioInventory {
        var inventory = AudioInventory(server: ServerIdentity(name: "test", version: "1", cookie: Self.cookie))
        if let volume {
            let id = StreamID(.playback, 5)
            inventory.streams[id] = AudioStream(id: id, applicationName: "paplay", processID: getpid(), role: "music",
                                                volume: volume)
        }
        return inventory
    }

    private func change(_ kind: InventoryChange.Kind, from previous: AudioInventory, to current: AudioInventory) -> InventoryChange {
        InventoryChange(kind: kind, previous: previous, current: current)
    }

    private func waitForDuck(_ journal: ChangeJournal, found: ChannelVolume, file: StaticString = #filePath, line: UInt = #line) throws {
        try waitUntil("ducked from \(found)", file: file, line: line) {
            journal.currentStreams.contains { entry in
                if case .volume(let was, let set) = entry.change {
                    return was == found && set == found.scaled(by: StreamPolicy.duckRatio)
                }
                return false
            }
        }
    }

    private func waitUntil(_ what: String, file: StaticString = #filePath, line: UInt = #line, _ condition: () -> Bool) throws {
        if !eventuallyBlocking(condition) { XCTFail("timed out: \(what)", file: file, line: line) }
    }
}
