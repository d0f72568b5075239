import XCTest
@testable import SessionCore

/// Every ordered pair of session configurations: A is active, B activates. Who is interrupted,
/// ducked or refused comes from the literal table below, not from the engine's rule function
/// (G-CALLS, G-CAT-OPTIONS, G-INT-KINDS, field notes on spoken audio).
final class PairwiseArbitrationTests: XCTestCase {
    /// The role of the already-active session A.
    enum ActiveKind: CaseIterable { case call, exclusive, exclusiveSpoken, mixer, mixerSpoken, processing }
    /// The role of the activating session B.
    enum NewKind: CaseIterable { case call, exclusive, processing, mixer, ducker, spokenInterrupter, duckingSpokenInterrupter }
    /// What happens: B refused, A interrupted, A ducked, or both simply play.
    enum Outcome { case refused, interrupted, ducked, plays }

    /// The table (rows: B; columns: A in `ActiveKind` order).
    static let table: [NewKind: [Outcome]] = [
        //                         call      exclusive     exclSpoken    mixer    mixerSpoken   processing
        .call:                     [.interrupted, .interrupted, .interrupted, .interrupted, .interrupted, .interrupted],
        .exclusive:                [.refused, .interrupted, .interrupted, .plays, .plays, .plays],
        .processing:               [.refused, .plays, .plays, .plays, .plays, .interrupted],
        .mixer:                    [.plays, .plays, .plays, .plays, .plays, .plays],
        .ducker:                   [.plays, .ducked, .ducked, .ducked, .ducked, .plays],
        .spokenInterrupter:        [.plays, .plays, .interrupted, .plays, .interrupted, .plays],
        .duckingSpokenInterrupter: [.plays, .ducked, .interrupted, .ducked, .interrupted, .plays],
    ]

    struct Facts {
        var mixes, call, processing, spoken, ducks, interruptsSpoken: Bool
        init(_ c: SessionConfiguration) {
            let o = c.options
            mixes = c.category == .ambient || o.contains(.mixWithOthers) || o.contains(.duckOthers)
                || o.contains(.interruptSpokenAudioAndMixWithOthers)
            call = c.category == .playAndRecord && !mixes && (c.mode == .voiceChat || c.mode == .videoChat)
            processing = c.category == .audioProcessing
            spoken = c.mode == .spokenAudio
            ducks = o.contains(.duckOthers)
            interruptsSpoken = o.contains(.interruptSpokenAudioAndMixWithOthers)
        }
        var activeKind: ActiveKind {
            if call { return .call }
            if processing { return .processing }
            if mixes { return spoken ? .mixerSpoken : .mixer }
            return spoken ? .exclusiveSpoken : .exclusive
        }
        var newKind: NewKind {
            if call { return .call }
            if processing { return .processing }
            if !mixes { return .exclusive }
            switch (ducks, interruptsSpoken) {
            case (true, true): return .duckingSpokenInterrupter
            case (true, false): return .ducker
            case (false, true): return .spokenInterrupter
            case (false, false): return .mixer
            }
        }
    }

    /// Every valid configuration that differs in arbitration: category × valid mode × every
    /// accepted subset of {mixWithOthers, duckOthers, interruptSpokenAudioAndMixWithOthers}.
    static var configurations: [SessionConfiguration] {
        let arbitrationOptions: [SessionOption] = [.mixWithOthers, .duckOthers, .interruptSpokenAudioAndMixWithOthers]
        var result: [SessionConfiguration] = []
        for category in SessionCategory.allCases {
            let accepted = arbitrationOptions.filter { ConfigurationTableTests.accepted[category]?.contains($0) ?? false }
            for mode in SessionMode.allCases where ConfigurationTableTests.validModes[mode]?.contains(category) ?? false {
                for mask in 0..<(1 << accepted.count) {
                    let options = accepted.enumerated().filter { mask & (1 << $0.offset) != 0 }.map(\.element)
                    result.append(SessionConfiguration(category, mode: mode, options: SessionOptions(options)))
                }
            }
        }
        return result
    }

    func testEveryOrderedPairOfConfigurations() {
        let all = Self.configurations
        XCTAssertEqual(all.count, 106)
        var counts: [Outcome: Int] = [:]
        for a in all {
            for b in all {
                func label() -> String { "A=\(a) B=\(b)" }
                let fa = Facts(a), fb = Facts(b)
                guard let row = Self.table[fb.newKind],
                      let column = ActiveKind.allCases.firstIndex(of: fa.activeKind) else {
                    XCTFail(label()); continue
                }
                let expected = row[column]
                counts[expected, default: 0] += 1
                var h = Harness()
                let ida = h.add(a), idb = h.add(b)
                XCTAssertEqual(h.activate(ida).outcome, .done, label())
                _ = h.take(ida)
                let decision = h.activate(idb)
                switch expected {
                case .refused:
                    XCTAssertEqual(decision.error, .insufficientPriority, label())
                    XCTAssertFalse(h.isActive(idb), label())
                    XCTAssertTrue(h.isActive(ida), label())
                    continue
                case .interrupted:
                    XCTAssertFalse(h.isActive(ida), label())
                    XCTAssertEqual(h.snapshot(ida)?.interruptedBy, .session(idb), label())
                    XCTAssertEqual(h.interruptions(ida), [began], label())
                case .ducked:
                    XCTAssertTrue(h.isActive(ida), label())
                    XCTAssertTrue(h.isDucked(ida), label())
                    XCTAssertEqual(h.take(ida).filter { $0 == .ducking(.began) }.count, 1, label())
                case .plays:
                    XCTAssertTrue(h.isActive(ida), label())
                    XCTAssertFalse(h.isDucked(ida), label())
                    XCTAssertEqual(h.interruptions(ida), [], label())
                }
                XCTAssertTrue(h.isActive(idb), label())
                // B is ducked by A exactly when A ducks, survives, and B is neither a call nor processing.
                let bDucked = fa.ducks && expected != .interrupted && !fb.call && !fb.processing
                XCTAssertEqual(h.isDucked(idb), bDucked, label())
                // B ends with notify-others: A resumes or un-ducks, and nothing stays ducked.
                _ = h.take(ida)
                h.deactivate(idb, notify: true)
                XCTAssertFalse(h.isDucked(ida), label())
                switch expected {
                case .interrupted: XCTAssertEqual(h.interruptions(ida), [endedResume], label())
                case .ducked: XCTAssertEqual(h.take(ida), [.ducking(.ended)], label())
                default: XCTAssertEqual(h.interruptions(ida), [], label())
                }
            }
        }
        // The table is exercised in every cell kind.
        for outcome in [Outcome.refused, .interrupted, .ducked, .plays] {
            XCTAssertGreaterThan(counts[outcome] ?? 0, 0, "\(outcome)")
        }
    }

    func testDeactivatingWithoutNotifyEndsWithoutShouldResume() {
        var h = Harness()
        let music = h.add(SessionConfiguration(.playback))
        let other = h.add(SessionConfiguration(.playback))
        h.activate(music)
        h.activate(other)
        XCTAssertEqual(h.interruptions(music), [began])
        h.deactivate(other, notify: false)
        XCTAssertEqual(h.interruptions(music), [endedNoResume])
    }
}
