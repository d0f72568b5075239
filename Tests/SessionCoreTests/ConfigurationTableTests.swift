import XCTest
@testable import SessionCore

/// G-CAT-OPTIONS: every category × every option, from the field notes' table, written out here.
final class ConfigurationTableTests: XCTestCase {
    /// The field notes, literally: which options each category accepts.
    static let accepted: [SessionCategory: Set<SessionOption>] = [
        .soloAmbient: [],
        .ambient: [.mixWithOthers, .duckOthers],
        .playback: [.mixWithOthers, .duckOthers, .interruptSpokenAudioAndMixWithOthers],
        .record: [.allowBluetooth],
        .playAndRecord: Set(SessionOption.allCases),
        .multiRoute: [],
        .audioProcessing: [],
    ]

    /// The field notes' mode table.
    static let validModes: [SessionMode: Set<SessionCategory>] = [
        .default: Set(SessionCategory.allCases),
        .voiceChat: [.playAndRecord], .videoChat: [.playAndRecord], .gameChat: [.playAndRecord],
        .videoRecording: [.record, .playAndRecord],
        .measurement: [.record, .playAndRecord, .playback],
        .moviePlayback: [.playback], .spokenAudio: [.playback],
        .voicePrompt: [.playback, .playAndRecord],
    ]

    func testEveryCategoryTimesEveryOption() throws {
        XCTAssertEqual(Set(Self.accepted.keys), Set(SessionCategory.allCases))
        for category in SessionCategory.allCases {
            for option in SessionOption.allCases {
                var engine = PolicyEngine()
                let id = engine.register()
                let previous = SessionConfiguration(.playAndRecord, options: [.defaultToSpeaker])
                _ = try engine.configure(id, previous)
                let request = SessionConfiguration(category, options: SessionOptions(option))
                let expectedOK = Self.accepted[category]?.contains(option) ?? false
                do {
                    let change = try engine.configure(id, request)
                    XCTAssertTrue(expectedOK, "\(category) accepted \(option)")
                    XCTAssertEqual(change.configuration, request)
                    XCTAssertEqual(engine.session(id)?.configuration, request)
                } catch {
                    XCTAssertFalse(expectedOK, "\(category) rejected \(option)")
                    XCTAssertEqual(error, .badParam(.optionNotAllowed(option: option, category: category)))
                    XCTAssertTrue(error.description.contains(option.rawValue), error.description)
                    XCTAssertTrue(error.description.contains(category.rawValue), error.description)
                    XCTAssertEqual(engine.session(id)?.configuration, previous, "previous configuration kept")
                }
            }
        }
    }

    func testEveryCategoryTimesEveryMode() throws {
        for category in SessionCategory.allCases {
            for mode in SessionMode.allCases {
                var engine = PolicyEngine()
                let id = engine.register()
                let change = try engine.configure(id, SessionConfiguration(category, mode: mode))
                let valid = Self.validModes[mode]?.contains(category) ?? false
                XCTAssertEqual(change.configuration.mode, valid ? mode : .default, "\(category)/\(mode)")
                XCTAssertEqual(change.ignoredMode, valid ? nil : mode, "\(category)/\(mode) reported")
                XCTAssertEqual(engine.session(id)?.configuration.mode, valid ? mode : .default)
            }
        }
    }

    func testInvalidModeBehavesAsDefault() throws {
        var h = Harness()
        let call = h.add(SessionConfiguration(.playAndRecord, mode: .voiceChat))
        let fakeCall = h.add(SessionConfiguration(.playback, mode: .voiceChat))
        let fakeSpoken = h.add(SessionConfiguration(.playAndRecord, mode: .spokenAudio, options: .mixWithOthers))
        let nav = h.add(SessionConfiguration(.playback, options: .interruptSpokenAudioAndMixWithOthers))
        XCTAssertEqual(h.snapshot(fakeCall)?.configuration.mode, .default)
        h.activate(fakeSpoken)
        h.activate(nav)
        XCTAssertTrue(h.isActive(fakeSpoken), "not spokenAudio: not interrupted by a spoken-audio interrupter")
        h.activate(call)
        XCTAssertEqual(h.activate(fakeCall).error, .insufficientPriority, "playback+voiceChat is no call")
    }

    func testOptionsAreNotSticky() throws {
        var engine = PolicyEngine()
        let id = engine.register()
        _ = try engine.configure(id, SessionConfiguration(.playback, options: [.mixWithOthers, .duckOthers]))
        _ = try engine.configure(id, SessionConfiguration(.record))
        XCTAssertEqual(engine.session(id)?.configuration.options, [])
        _ = try engine.configure(id, SessionConfiguration(.playback))
        XCTAssertEqual(engine.session(id)?.configuration.options, [], "options not carried back")
    }

    func testDefaultIsSoloAmbient() {
        var engine = PolicyEngine()
        let id = engine.register()
        XCTAssertEqual(engine.session(id)?.configuration, SessionConfiguration(.soloAmbient))
    }

    func testImpliedMixing() {
        XCTAssertTrue(SessionConfiguration(.playback, options: [.duckOthers]).traits.isMixable)
        XCTAssertTrue(SessionConfiguration(.playback, options: [.interruptSpokenAudioAndMixWithOthers]).traits.isMixable)
        XCTAssertTrue(SessionConfiguration(.ambient).traits.isMixable)
        XCTAssertFalse(SessionConfiguration(.playback).traits.isMixable)
        XCTAssertFalse(SessionConfiguration(.record).traits.isMixable)
    }

    func testRegisterRejectsBadOptions() {
        var engine = PolicyEngine()
        XCTAssertThrowsError(try engine.register(SessionConfiguration(.soloAmbient, options: [.duckOthers])))
        XCTAssertTrue(engine.sessionIDs.isEmpty)
    }

    func testUnknownSessionIsBadParam() {
        var engine = PolicyEngine()
        let ghost = SessionID(rawValue: 99)
        XCTAssertThrowsError(try engine.configure(ghost, SessionConfiguration())) { error in
            XCTAssertEqual(error as? SessionError, .badParam(.unknownSession(ghost)))
        }
        XCTAssertEqual(engine.activate(ghost).error, .badParam(.unknownSession(ghost)))
        XCTAssertEqual(engine.deactivate(ghost).error, .badParam(.unknownSession(ghost)))
        XCTAssertEqual(engine.remove(ghost), [])
    }
}
