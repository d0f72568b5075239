@testable import AppClassification
@testable import AudioPolicyDaemon
import AudioServer
import Foundation
import SessionCore
import XCTest

/// The apps rules file: its format, its bad lines (numbered, skipped, the rest still applies),
/// its limits and the first-match rule.
final class AppRulesTests: XCTestCase {
    private func parse(_ text: String) -> AppRules { AppRules(parsing: text, path: "/apps") }

    func testEveryKindOfMatchAndAction() {
        let rules = parse("""
            # a comment
            app "ZOOM VoiceEngine" = call
              binary electron = ignore   # trailing comment
            flatpak org.signal.Signal = call

            app Twinkle = playAndRecord voiceChat
            app "Kids Game" = soloAmbient
            app Navi = playback duckOthers voicePrompt interruptSpokenAudioAndMixWithOthers
            app Beeper = alert
            app Tunes = music
            """)
        XCTAssertEqual(rules.problems, [])
        XCTAssertEqual(rules.rules.map(\.line), [2, 3, 4, 6, 7, 8, 9, 10])
        XCTAssertEqual(rules.rules.map(\.match), [.app("ZOOM VoiceEngine"), .binary("electron"),
                                                  .flatpak("org.signal.Signal"), .app("Twinkle"), .app("Kids Game"),
                                                  .app("Navi"), .app("Beeper"), .app("Tunes")])
        XCTAssertEqual(rules.rules.map(\.action), [
            .appClass(.call), .appClass(.ignore), .appClass(.call),
            .configuration(SessionConfiguration(.playAndRecord, mode: .voiceChat)),
            .configuration(SessionConfiguration(.soloAmbient)),
            .configuration(SessionConfiguration(.playback, mode: .voicePrompt,
                                                options: [.duckOthers, .interruptSpokenAudioAndMixWithOthers])),
            .appClass(.systemSound), .appClass(.media),
        ])
    }

    func testEveryClassWord() {
        for (word, appClass) in AppClass.ruleWords {
            XCTAssertEqual(parse("app x = \(word)").rules.first?.action, .appClass(appClass), word)
        }
        XCTAssertEqual(Set(AppClass.ruleWords.values), Set(AppClass.allCases).subtracting([.custom]))
    }

    func testLineEndingsAndHashInsideQuotes() {
        let rules = parse("app \"A # B=C\" = call\r\nbinary b = game\rflatpak c.d = ignore")
        XCTAssertEqual(rules.problems, [])
        XCTAssertEqual(rules.rules.map(\.match), [.app("A # B=C"), .binary("b"), .flatpak("c.d")])
        XCTAssertEqual(rules.rules.map(\.line), [1, 2, 3])
    }

    func testBadLinesAreReportedWithTheirNumberAndSkipped() {
        let rules = parse("""
            app ZOOM = call
            zoom = call
            app = call
            app Two Words = call
            app x =
            app x = bogus
            app x = call extra
            app x = playback voiceChat
            app x = ambient defaultToSpeaker
            app x = playAndRecord voiceChat videoChat
            app x = playback loud
            app "unclosed = call
            just words
            app x = "call"
            app "" = call
            binary b = game
            """)
        XCTAssertEqual(rules.rules.map(\.line), [1, 16])
        XCTAssertEqual(rules.problems.count, 14)
        XCTAssertEqual(rules.problems.map { $0.split(separator: ":")[1] }, (2...15).map { Substring("\($0)") })
        let expected = [
            "/apps:2: 'zoom': expected app, binary, flatpak or player",
            "/apps:3: app needs a name before '='",
            "/apps:4: app takes one name; quote one with spaces: app \"Two Words\"",
            "/apps:5: nothing after '='; expected a class",
            "/apps:6: 'bogus' is neither a class",
            "/apps:7: class call takes nothing after it, got 'extra'",
            "/apps:8: mode voiceChat does not fit category playback",
            "/apps:9: option defaultToSpeaker does not fit category ambient",
            "/apps:10: two modes: voiceChat and videoChat",
            "/apps:11: 'loud' is neither a mode nor an option",
            "/apps:12: the quoted name '\"unclosed = call' is not closed",
            "/apps:13: expected 'app NAME = ACTION'",
            "/apps:14: 'call' after '=': expected plain words",
            "/apps:15: app needs a name before '='",
        ]
        for (problem, start) in zip(rules.problems, expected) {
            XCTAssertTrue(problem.hasPrefix(start), "\(problem) does not start with \(start)")
        }
    }

    func testFirstMatchingRuleWinsAndALaterSameMatchIsReported() {
        let rules = parse("""
            binary electron = call
            app Chromium = ignore
            app CHROMIUM = game
            """)
        XCTAssertEqual(rules.problems, ["/apps:3: app \"CHROMIUM\" never applies: line 2 matches it first"])
        let stream = AudioStream(id: StreamID(.playback, 1), applicationName: "chromium", binary: "electron")
        XCTAssertEqual(rules.rule(for: stream)?.line, 1)
        let other = AudioStream(id: StreamID(.playback, 1), applicationName: "Chromium", binary: "chrome")
        XCTAssertEqual(rules.rule(for: other)?.line, 2)
    }

    func testMatchingByEachProperty() {
        let rules = parse("""
            app "ZOOM VoiceEngine" = call
            binary Electron = ignore
            flatpak org.signal.Signal = call
            """)
        func line(_ stream: AudioStream) -> Int? { rules.rule(for: stream)?.line }
        let id = StreamID(.capture, 3)
        XCTAssertEqual(line(AudioStream(id: id, applicationName: "zoom voiceengine")), 1)
        XCTAssertNil(line(AudioStream(id: id, applicationName: "ZOOM")))
        XCTAssertEqual(line(AudioStream(id: id, binary: "Electron")), 2)
        XCTAssertNil(line(AudioStream(id: id, binary: "electron")), "binaries match exactly")
        XCTAssertEqual(line(AudioStream(id: id, flatpakID: "org.signal.Signal")), 3)
        XCTAssertNil(line(AudioStream(id: id, flatpakID: "org.signal.signal")), "Flatpak ids match exactly")
        XCTAssertNil(line(AudioStream(id: id)))
    }

    func testLongLinesAreRefused() {
        let long = "app \"" + String(repeating: "x", count: AppRules.lineLengthLimit) + "\" = call"
        let rules = parse("app a = call\n" + long + "\napp b = game")
        XCTAssertEqual(rules.rules.map(\.line), [1, 3])
        XCTAssertEqual(rules.problems, ["/apps:2: longer than \(AppRules.lineLengthLimit) bytes; ignored"])
    }

    func testAtMostRuleLimitRulesAreRead() {
        var lines = (1...AppRules.ruleLimit).map { "app a\($0) = call" }
        lines += ["# a comment", "", "app late = call", "app later = call"]
        let rules = parse(lines.joined(separator: "\n"))
        XCTAssertEqual(rules.rules.count, AppRules.ruleLimit)
        XCTAssertEqual(rules.problems,
                       ["/apps:\(AppRules.ruleLimit + 3): more than \(AppRules.ruleLimit) rules; this line and the rest are ignored"])
    }

    func testBriefProblemsAreBounded() {
        let rules = parse(Array(repeating: "nonsense", count: 30).joined(separator: "\n"))
        XCTAssertEqual(rules.problems.count, 30)
        XCTAssertEqual(rules.briefProblems.count, 21)
        XCTAssertEqual(rules.briefProblems.last, "/apps: 10 more problems not shown")
    }

    func testLoadingTheFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apprules-\(getpid())-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("apps").path

        let absent = AppRules.load(path: path)
        XCTAssertEqual(absent.rules, [])
        XCTAssertEqual(absent.problems, [])

        try "app x = call\nbad line\n".write(toFile: path, atomically: true, encoding: .utf8)
        let loaded = AppRules.load(path: path)
        XCTAssertEqual(loaded.rules.map(\.match), [.app("x")])
        XCTAssertEqual(loaded.problems, ["\(path):2: expected 'app NAME = ACTION', 'binary NAME = ACTION', 'flatpak ID = ACTION' or 'player NAME = spokenAudio'"])

        let fifo = directory.appendingPathComponent("fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let refused = AppRules.load(path: fifo)
        XCTAssertEqual(refused.rules, [])
        XCTAssertEqual(refused.problems, ["\(fifo): not a regular file; ignored"])
    }

    // MARK: player rules (MPRIS players as spoken audio)

    func testPlayerRulesAndTheirActions() {
        let rules = parse("""
            app Navi = prompt
            player mpv = spokenAudio
            player "GNOME Podcasts" = playback spokenAudio   # an Identity with a space
            player vlc = playback
            player Rhythmbox = music
            player Lollypop = media
            player Amberol = playback default
            """)
        XCTAssertEqual(rules.problems, [])
        XCTAssertEqual(rules.rules.map(\.line), [1], "player rules are not stream rules")
        XCTAssertEqual(rules.playerRules, [
            AppRules.PlayerRule(line: 2, name: "mpv", spokenAudio: true),
            AppRules.PlayerRule(line: 3, name: "GNOME Podcasts", spokenAudio: true),
            AppRules.PlayerRule(line: 4, name: "vlc", spokenAudio: false),
            AppRules.PlayerRule(line: 5, name: "Rhythmbox", spokenAudio: false),
            AppRules.PlayerRule(line: 6, name: "Lollypop", spokenAudio: false),
            AppRules.PlayerRule(line: 7, name: "Amberol", spokenAudio: false),
        ])
        let stream = AudioStream(id: StreamID(.playback, 1), applicationName: "mpv", binary: "mpv")
        XCTAssertNil(rules.rule(for: stream), "a player rule never classifies a stream")
    }

    func testBadPlayerLinesAreReportedWithTheirNumberAndSkipped() {
        let rules = parse("""
            player mpv = spokenAudio
            player mpv
            player = spokenAudio
            player Two Words = spokenAudio
            player x =
            player x = call
            player x = playback moviePlayback
            player x = playback spokenAudio mixWithOthers
            player x = "spokenAudio"
            player MPV = playback
            player "unclosed = spokenAudio
            """)
        XCTAssertEqual(rules.playerRules.map(\.line), [1])
        let expected = [
            "/apps:2: expected 'player NAME = spokenAudio'",
            "/apps:3: player needs a name before '='",
            "/apps:4: player takes one name; quote one with spaces: player \"Two Words\"",
            "/apps:5: nothing after '='; expected spokenAudio, playback spokenAudio or playback",
            "/apps:6: a player is non-mixing playback: expected spokenAudio, playback spokenAudio or playback, got 'call'",
            "/apps:7: a player is non-mixing playback: expected spokenAudio, playback spokenAudio or playback, got 'playback moviePlayback'",
            "/apps:8: a player is non-mixing playback: expected spokenAudio, playback spokenAudio or playback, got 'playback spokenAudio mixWithOthers'",
            "/apps:9: 'spokenAudio' after '=': expected plain words",
            "/apps:10: player \"MPV\" never applies: line 1 matches it first",
            "/apps:11: the quoted name '\"unclosed = spokenAudio' is not closed",
        ]
        XCTAssertEqual(rules.problems, expected)
    }

    func testPlayerRulesCountTowardsTheRuleLimit() {
        var lines = (1...AppRules.ruleLimit).map { "player p\($0) = spokenAudio" }
        lines.append("app late = call")
        let rules = parse(lines.joined(separator: "\n"))
        XCTAssertEqual(rules.playerRules.count, AppRules.ruleLimit)
        XCTAssertEqual(rules.rules, [])
        XCTAssertEqual(rules.problems.count, 1)
    }

    func testAPlayerRuleMatchesTheBusNameOrTheIdentityWithoutRegardToCase() {
        let rules = parse("""
            player MPV = spokenAudio
            player "gnome podcasts" = spokenAudio
            player firefox = playback
            """)
        func line(_ busName: String, _ identity: String? = nil) -> Int? {
            rules.playerRule(busName: busName, identity: identity)?.line
        }
        XCTAssertEqual(line("org.mpris.MediaPlayer2.mpv"), 1)
        XCTAssertEqual(line("org.mpris.MediaPlayer2.mpv.instance4711"), 1, "an instance suffix is dropped")
        XCTAssertEqual(line("org.mpris.MediaPlayer2.firefox.instance_1_23"), 3, "Firefox's instance suffix too")
        XCTAssertEqual(line("org.mpris.MediaPlayer2.GnomePodcasts", "GNOME Podcasts"), 2, "by its Identity")
        XCTAssertNil(line("org.mpris.MediaPlayer2.GnomePodcasts"), "no Identity known yet")
        XCTAssertNil(line("org.mpris.MediaPlayer2.mpvx"))
        XCTAssertNil(line("org.mpris.MediaPlayer2.vlc", "VLC media player"))
        XCTAssertEqual(AppRules.PlayerRule.playerPart(of: "org.mpris.MediaPlayer2.instance"), "instance",
                       "a player named instance stays itself")
        XCTAssertEqual(AppRules.PlayerRule.playerPart(of: "org.mpris.MediaPlayer2.a.b.instance9"), "a.b")
    }
}
