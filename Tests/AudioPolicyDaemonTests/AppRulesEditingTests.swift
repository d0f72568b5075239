@testable import AppClassification
@testable import AudioPolicyDaemon
import SessionCore
import XCTest

/// `mprisd apps set` / `unset` on the apps file's text: the rule written is the one the daemon
/// reads back, and nothing else of the file changes — comments, blank lines, bad lines, other
/// rules, line endings.
final class AppRulesEditingTests: XCTestCase {
    private let path = "/apps"

    private func set(_ match: AppRules.Rule.Match, _ words: [String], in text: String) throws -> AppRules.Edit {
        try AppRules.setting(match, to: words, in: text, path: path)
    }

    func testAddingToAnEmptyOrMissingFile() throws {
        let edit = try set(.app("ZOOM VoiceEngine"), ["call"], in: "")
        XCTAssertEqual(edit.text, "app \"ZOOM VoiceEngine\" = call\n")
        XCTAssertEqual(edit.written?.line, 1)
        XCTAssertNil(edit.replacedLine)
        XCTAssertEqual(AppRules(parsing: edit.text, path: path).rules.map(\.action), [.appClass(.call)])
    }

    func testAddingKeepsEverythingElseAndEndsTheLastLineFirst() throws {
        let text = "# my rules\n\nbinary electron = ignore  # Electron apps\nbogus line\napp Twinkle = call"
        let edit = try set(.binary("zoom"), ["playAndRecord", "voiceChat"], in: text)
        XCTAssertEqual(edit.text, text + "\nbinary zoom = playAndRecord voiceChat\n")
        XCTAssertEqual(edit.written?.line, 6)
        let read = AppRules(parsing: edit.text, path: path)
        XCTAssertEqual(read.rules.map(\.match), [.binary("electron"), .app("Twinkle"), .binary("zoom")])
        XCTAssertEqual(read.problems.count, 1, "the bad line stays, reported as before: \(read.problems)")
        XCTAssertTrue(read.problems[0].hasPrefix("/apps:4: "), read.problems[0])
    }

    func testReplacingInPlaceKeepsIndentationTrailingCommentAndLineEnding() throws {
        let text = "# calls\r\n  APP \"zoom voiceengine\" = media   # was wrong\r\napp \"ZOOM VoiceEngine\" = ignore\r\napp other = game\r\n"
        // "APP" is not a match word: that line is bad and stays. The app name matches without
        // regard to case.
        let edit = try set(.app("ZOOM VoiceEngine"), ["call"], in: text)
        XCTAssertEqual(edit.text, "# calls\r\n  APP \"zoom voiceengine\" = media   # was wrong\r\napp \"ZOOM VoiceEngine\" = call\r\napp other = game\r\n")
        XCTAssertEqual(edit.replacedLine, 3)

        let indented = "  app \"zoom voiceengine\" = media   # was wrong\n"
        let replaced = try set(.app("ZOOM VoiceEngine"), ["call"], in: indented)
        XCTAssertEqual(replaced.text, "  app \"ZOOM VoiceEngine\" = call   # was wrong\n")
        XCTAssertEqual(replaced.replacedLine, 1)
        XCTAssertEqual(replaced.written?.line, 1)
    }

    func testLaterRulesForTheSameAppAreRemovedWhenOneIsSet() throws {
        let text = "app a = call\napp b = game\napp A = media\n# end\n"
        XCTAssertEqual(AppRules(parsing: text, path: path).problems.count, 1, "the third line never applied")
        let edit = try set(.app("a"), ["prompt"], in: text)
        XCTAssertEqual(edit.text, "app a = prompt\napp b = game\n# end\n")
        XCTAssertEqual(edit.replacedLine, 1)
        XCTAssertEqual(edit.removedLines, [3])
        XCTAssertEqual(AppRules(parsing: edit.text, path: path).problems, [])
    }

    func testUnsetRemovesEveryRuleForTheMatchAndOnlyThose() throws {
        let text = "# keep\nbinary zoom = ignore # x\nbinary Zoom = call\napp zoom = call\nbinary zoom = game\n"
        let edit = try AppRules.unsetting(.binary("zoom"), in: text, path: path)
        XCTAssertEqual(edit.text, "# keep\nbinary Zoom = call\napp zoom = call\n", "a binary matches exactly, an app is another match")
        XCTAssertEqual(edit.removedLines, [2, 5])
        XCTAssertNil(edit.written)
        XCTAssertThrowsError(try AppRules.unsetting(.flatpak("us.zoom.Zoom"), in: text, path: path)) { error in
            XCTAssertEqual("\(error)", "no rule for flatpak us.zoom.Zoom in /apps")
        }
    }

    func testBadActionsAndNamesAreRefusedWithTheParsersReason() {
        func reason(_ match: AppRules.Rule.Match, _ words: [String]) -> String? {
            do {
                _ = try set(match, words, in: "")
                return nil
            } catch {
                return "\(error)"
            }
        }
        XCTAssertTrue(reason(.app("x"), ["callz"])?.contains("'callz' is neither a class") == true)
        XCTAssertTrue(reason(.app("x"), ["call", "voiceChat"])?.contains("class call takes nothing after it") == true)
        XCTAssertTrue(reason(.app("x"), ["playback", "voiceChat"])?.contains("mode voiceChat does not fit category playback") == true)
        XCTAssertTrue(reason(.app("x"), ["ambient", "defaultToSpeaker"])?.contains("option defaultToSpeaker does not fit category ambient") == true)
        XCTAssertTrue(reason(.app("x"), ["call#"])?.contains("plain word") == true, "a '#' would cut the rule short")
        XCTAssertTrue(reason(.app("x"), ["call", "=", "game"])?.contains("plain word") == true)
        XCTAssertTrue(reason(.app("a\"b"), ["call"])?.contains("without '\"'") == true)
        XCTAssertTrue(reason(.binary("a\nb"), ["call"])?.contains("control characters") == true)
        XCTAssertTrue(reason(.flatpak(""), ["call"]) != nil)
        XCTAssertTrue(reason(.app("x"), [])?.contains("needs a class or a category") == true)
        let long = String(repeating: "n", count: AppRules.lineLengthLimit)
        XCTAssertTrue(reason(.app(long), ["call"])?.contains("the daemon reads lines of at most \(AppRules.lineLengthLimit)") == true)
    }

    func testWordsWithBlanksAreSplitAndNamesWithSpecialCharactersQuoted() throws {
        let edit = try set(.app("A # B=C"), ["playAndRecord voiceChat", "allowBluetooth"], in: "")
        XCTAssertEqual(edit.text, "app \"A # B=C\" = playAndRecord voiceChat allowBluetooth\n")
        let rules = AppRules(parsing: edit.text, path: path).rules
        XCTAssertEqual(rules.map(\.match), [.app("A # B=C")])
        XCTAssertEqual(rules.map(\.action), [.configuration(SessionConfiguration(.playAndRecord, mode: .voiceChat,
                                                                                 options: [.allowBluetooth]))])
    }

    func testEveryClassAndCategoryRoundTrips() throws {
        for word in AppClass.ruleWords.keys.sorted() {
            let edit = try set(.flatpak("org.example.App"), [word], in: "")
            XCTAssertEqual(AppRules(parsing: edit.text, path: path).rules.first?.action, edit.written?.action, word)
        }
        for category in SessionCategory.allCases {
            let edit = try set(.binary("b"), [category.rawValue], in: "")
            XCTAssertEqual(AppRules(parsing: edit.text, path: path).rules.first?.action,
                           .configuration(try SessionConfiguration(category).validated().effective), category.rawValue)
        }
    }

    func testARuleTheDaemonWouldNotReadIsRefused() {
        let full = (1...AppRules.ruleLimit).map { "app a\($0) = call" }.joined(separator: "\n") + "\n"
        XCTAssertThrowsError(try set(.app("one more"), ["call"], in: full)) { error in
            XCTAssertTrue("\(error)".contains("already has \(AppRules.ruleLimit) rules"), "\(error)")
        }
        XCTAssertNoThrow(try set(.app("a7"), ["game"], in: full), "replacing one is fine")
    }
}
