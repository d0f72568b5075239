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
import TestSupport
import XCTest

/// What the implicit-session tests share: a policy with implicit sessions on a real engine and a
/// real journal, fed the server's events as values, its time a `VirtualClock` the test drives
/// (ImplicitSessionPolicyTests, ImplicitSessionTimingTests).
class ImplicitSessionPolicyTestCase: XCTestCase {
    static let cookie: UInt32 = 15
    static let full = ChannelVolume(uniform: ChannelVolume.norm, count: 2)
    var directory = ""
    let lines = EventRecord<String>()

    // Apps that know nothing of mprisd, each its own process (pids no process has: the ancestry
    // walk finds nothing to pair them with).
    static let jukebox = AudioStream(id: StreamID(.playback, 1), applicationName: "jukebox",
                                     processID: 4_500_001, volume: full)
    static let zoom = AudioStream(id: StreamID(.capture, 1), applicationName: "ZOOM VoiceEngine",
                                  processID: 4_500_002)
    static let navigator = AudioStream(id: StreamID(.playback, 2), applicationName: "navigator",
                                       processID: 4_500_003, role: "navigation", volume: full)
    static let orca = AudioStream(id: StreamID(.playback, 3), applicationName: "orca",
                                  processID: 4_500_004, role: "a11y", volume: full)
    static let notifier = AudioStream(id: StreamID(.playback, 4), applicationName: "notifier",
                                      processID: 4_500_005, role: "event", volume: full)

    override func setUp() {
        directory = NSTemporaryDirectory() + "mprisd-implicit-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    // MARK: Helpers

    /// A policy with implicit sessions on a real engine, connected (as far as it knows) to a
    /// server with `streams`.
    /// Time is the test's own (`VirtualClock`): it stands still until `harness.advance`.
    /// `timing`: the standard, without the reopen grace (a closed microphone ends its call at
    /// once) unless a test gives its own.
    func start(_ streams: [AudioStream], timing: CallTiming? = nil) throws -> Harness {
        let system = AudioSystem(conditions: SystemConditions(isOutputVolumeKnown: false))
        let journal = ChangeJournal(file: StateFile(path: directory + "/journal"), log: { _ in })
        let link = AudioServerLink(address: .unknown(reason: "a test"), log: { _ in })
        let lines = self.lines
        let clock = VirtualClock()
        let policy = try StreamPolicy(link: link, connection: nil, journal: journal, log: { lines.append($0) },
                                      clock: clock.policyClock)
        let harness = Harness(system: system, policy: policy, journal: journal, clock: clock)
        policy.inventoryChanged(InventoryChange(kind: .connected, previous: AudioInventory(),
                                                current: harness.inventory(streams)))
        harness.lastFed.withLock { $0 = harness.inventory(streams) }
        let timing = timing ?? {
            var timing = CallTiming.standard
            timing.reopenGrace = .zero
            return timing
        }()
        policy.enableImplicitSessions(ImplicitSessionSetup(system: system, sessions: harness.sessions, rules: AppRules(),
                                                           timing: timing, resumeAfterCalls: true))
        return harness
    }

    func app(_ name: String, in harness: Harness) -> PolicyStatus.App? {
        harness.policy.appReport().first { $0.application == name && $0.present }
    }

    func isMuted(_ stream: AudioStream, in journal: ChangeJournal) -> Bool {
        journal.currentStreams.contains { $0.index == stream.id.index && $0.cookie == Self.cookie && $0.change == .mute }
    }

    func duck(of stream: AudioStream, in journal: ChangeJournal) -> (found: ChannelVolume, set: ChannelVolume)? {
        for entry in journal.currentStreams where entry.index == stream.id.index && entry.cookie == Self.cookie {
            if case .volume(let found, let set) = entry.change { return (found, set) }
        }
        return nil
    }

    func waitUntil(_ what: String, file: StaticString = #filePath, line: UInt = #line, _ condition: () -> Bool) throws {
        if !eventuallyBlocking(condition) { XCTFail("timed out: \(what)", file: file, line: line) }
    }

    /// The engine, the policy and its journal of one test.
    final class Harness: Sendable {
        let system: AudioSystem
        let policy: StreamPolicy
        let journal: ChangeJournal
        /// The policy's time.
        let clock: VirtualClock
        /// The daemon's list of sessions, where the implicit ones are entered.
        let sessions = SessionDirectory()
        /// The inventory last given with `feed`, the `previous` of the next.
        let lastFed = Mutex(AudioInventory())

        init(system: AudioSystem, policy: StreamPolicy, journal: ChangeJournal, clock: VirtualClock) {
            self.system = system
            self.policy = policy
            self.journal = journal
            self.clock = clock
        }

        /// Moves the policy's time on by `duration` once what it was given is decided, and waits
        /// until what came due is decided too.
        func advance(by duration: Duration) {
            settle()
            clock.advance(by: duration)
            settle()
        }

        /// The server's inventory with `streams`.
        func inventory(_ streams: [AudioStream]) -> AudioInventory {
            var inventory = AudioInventory(server: ServerIdentity(name: "test", version: "1",
                                                                  cookie: ImplicitSessionPolicyTestCase.cookie))
            for stream in streams { inventory.streams[stream.id] = stream }
            return inventory
        }

        /// One event of the server: the streams now are `streams`.
        func feed(_ streams: [AudioStream]) {
            let current = inventory(streams)
            let previous = lastFed.withLock { last in
                defer { last = current }
                return last
            }
            policy.inventoryChanged(InventoryChange(kind: .updated, previous: previous, current: current))
        }

        /// Until the engine's events and the decisions they cause have run out (a few rounds:
        /// a decision may call the engine, whose events come back to the policy once more).
        func settle() {
            for _ in 0..<4 {
                system.waitForDelivery()
                policy.thread.enqueueAndWait {}
            }
        }
    }
}
