import XCTest
@testable import SessionCore

/// G-SILENT and the lock rule: every category × silent mode × lock state.
final class ConditionsTableTests: XCTestCase {
    /// The guidelines' §2 table, written out: (silenced by silent mode and lock, plays while locked).
    static let table: [SessionCategory: (silenced: Bool, playsLocked: Bool)] = [
        .soloAmbient: (true, false),
        .ambient: (true, false),
        .playback: (false, true),
        .record: (false, true),
        .playAndRecord: (false, true),
        .multiRoute: (false, true),
        .audioProcessing: (false, true),
    ]

    func testEveryCategoryTimesSilentModeTimesLockState() {
        XCTAssertEqual(Set(Self.table.keys), Set(SessionCategory.allCases))
        for category in SessionCategory.allCases {
            guard let row = Self.table[category] else { continue }
            for silent in [false, true] {
                for locked in [false, true] {
                    let label = "\(category) silent=\(silent) locked=\(locked)"
                    var h = Harness(SystemConditions(isSilentMode: silent, isLocked: locked))
                    let id = h.add(SessionConfiguration(category))
                    let decision = h.activate(id)
                    if locked && !row.playsLocked {
                        XCTAssertEqual(decision.error, .cannotStartPlaying, label)
                        XCTAssertFalse(h.isActive(id), label)
                    } else {
                        XCTAssertEqual(decision.outcome, .done, label)
                        XCTAssertTrue(h.isActive(id), label)
                    }
                    XCTAssertEqual(h.engine.isSilenced(id), silent && row.silenced, label)
                }
            }
        }
    }

    func testLockingInterruptsOnlyTheSilencedCategoriesAndUnlockResumes() {
        for category in SessionCategory.allCases {
            guard let row = Self.table[category] else { continue }
            for silent in [false, true] {
                let label = "\(category) silent=\(silent)"
                var h = Harness(SystemConditions(isSilentMode: silent))
                let id = h.add(SessionConfiguration(category))
                h.activate(id)
                h.lock(true)
                if row.playsLocked {
                    XCTAssertTrue(h.isActive(id), label)
                    XCTAssertEqual(h.interruptions(id), [], label)
                } else {
                    XCTAssertFalse(h.isActive(id), label)
                    XCTAssertEqual(h.snapshot(id)?.interruptedBy, .suspended, label)
                    XCTAssertEqual(h.interruptions(id), [.began(reason: .appWasSuspended)], label)
                }
                h.lock(false)
                XCTAssertEqual(h.interruptions(id), row.playsLocked ? [] : [endedResume], label)
            }
        }
    }

    /// The other half of the background mapping (§6): an app that declares itself in background
    /// behaves as if locked, for its own session only.
    func testEveryCategoryInBackground() throws {
        for category in SessionCategory.allCases {
            guard let row = Self.table[category] else { continue }
            var h = Harness()
            let id = h.add(SessionConfiguration(category))
            let other = h.add(SessionConfiguration(.ambient))
            h.activate(other)
            h.activate(id)
            h.record(try h.engine.setInBackground(id, true))
            XCTAssertEqual(h.isActive(id), row.playsLocked, "\(category)")
            XCTAssertTrue(h.isActive(other), "\(category): only the app that went to background")
            XCTAssertEqual(h.interruptions(id), row.playsLocked ? [] : [.began(reason: .appWasSuspended)])
            h.deactivate(id)
            let again = h.activate(id)
            XCTAssertEqual(again.error, row.playsLocked ? nil : .cannotStartPlaying, "\(category)")
            h.record(try h.engine.setInBackground(id, false))
            XCTAssertEqual(h.interruptions(id), row.playsLocked ? [] : [endedResume], "\(category)")
            XCTAssertEqual(h.snapshot(id)?.isInBackground, false)
        }
    }

    func testSilentModeIsBroadcastAndDoesNotStopAnything() {
        var h = Harness()
        let music = h.add(SessionConfiguration(.playback))
        let game = h.add(SessionConfiguration(.ambient))
        h.activate(music)
        h.activate(game)
        _ = h.take(music); _ = h.take(game)
        h.silent(true)
        XCTAssertEqual(h.take(music), [.silentModeChanged(true)])
        XCTAssertEqual(h.take(game), [.silentModeChanged(true)])
        XCTAssertTrue(h.isActive(music) && h.isActive(game))
        XCTAssertTrue(h.engine.isSilenced(game))
        XCTAssertFalse(h.engine.isSilenced(music))
        h.silent(true)
        XCTAssertEqual(h.take(game), [], "no event without a change")
    }
}
