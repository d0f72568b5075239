import DBus
import Foundation
import TestSupport
import XCTest

/// `mprisd apps` from outside: `set` and `unset` on the real file (comments and other lines
/// kept, the replacement atomic, bad input refused with the file untouched), the listing with
/// and without a daemon, and its JSON document. The listing of apps is read from a status
/// document served on the test's bus under the daemon's name (`serveStatus`), so that its table
/// and JSON are checked against known apps; DaemonAppsFileTests runs the real daemon.
final class AppsCommandTests: DaemonTestCase {
    private var appsFile: String { path("config") + "/mprisd/apps" }

    private func contents() throws -> String { try String(contentsOfFile: appsFile, encoding: .utf8) }

    private func write(_ text: String) throws {
        try FileManager.default.createDirectory(atPath: path("config") + "/mprisd", withIntermediateDirectories: true)
        try text.write(toFile: appsFile, atomically: false, encoding: .utf8)
    }

    /// The files of the apps file's directory (a leftover temporary file would show here).
    private func directoryListing() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path("config") + "/mprisd").sorted()
    }

    func testSetAddsReplacesInPlaceAndUnsetRemovesKeepingEverythingElse() async throws {
        // No directory yet: made private to the user.
        let first = try await mprisd(["apps", "set", "app", "ZOOM VoiceEngine", "call"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(first.stdout, "\(appsFile):1: app \"ZOOM VoiceEngine\" = call (added)\n")
        XCTAssertEqual(try contents(), "app \"ZOOM VoiceEngine\" = call\n")
        var info = stat()
        XCTAssertEqual(stat(path("config") + "/mprisd", &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o700)

        try write("# my apps\n\nbinary electron = ignore   # every Electron app\nthis line is bad\napp \"ZOOM VoiceEngine\" = call\n")
        XCTAssertEqual(chmod(appsFile, 0o600), 0)
        let added = try await mprisd(["apps", "set", "flatpak", "us.zoom.Zoom", "playAndRecord", "voiceChat"])
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertTrue(added.stderr.contains(":4: expected"), "the file's other problems are said: \(added.stderr)")
        let replaced = try await mprisd(["apps", "set", "binary", "electron", "mixing"])
        XCTAssertEqual(replaced.status, 0, replaced.stderr)
        XCTAssertEqual(replaced.stdout, "\(appsFile):3: binary electron = mixing (replaced line 3)\n")
        let recased = try await mprisd(["apps", "set", "app", "zoom voiceengine", "prompt"])
        XCTAssertEqual(recased.status, 0, recased.stderr)
        XCTAssertEqual(try contents(), """
            # my apps

            binary electron = mixing   # every Electron app
            this line is bad
            app "zoom voiceengine" = prompt
            flatpak us.zoom.Zoom = playAndRecord voiceChat

            """, "an app's name matches without regard to case: its rule is replaced, not added")
        XCTAssertEqual(stat(appsFile, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600, "the file keeps its permissions")

        let unset = try await mprisd(["apps", "unset", "binary", "electron"])
        XCTAssertEqual(unset.status, 0, unset.stderr)
        XCTAssertEqual(unset.stdout, "\(appsFile): removed line 3\n")
        XCTAssertEqual(try contents(), """
            # my apps

            this line is bad
            app "zoom voiceengine" = prompt
            flatpak us.zoom.Zoom = playAndRecord voiceChat

            """)
        XCTAssertEqual(try directoryListing(), ["apps"], "no temporary file left behind")
    }

    func testBadInputIsOneLineAndLeavesTheFileUntouched() async throws {
        let original = "# keep me\r\napp a = call\r\n"
        try write(original)
        var before = stat()
        XCTAssertEqual(stat(appsFile, &before), 0)
        let cases: [([String], Int32, String)] = [
            (["apps", "set", "app", "ZOOM VoiceEngine", "cal"], 64, "'cal' is neither a class"),
            (["apps", "set", "app", "x", "playback", "voiceChat"], 64, "mode voiceChat does not fit category playback"),
            (["apps", "set", "app", "x", "call", "game"], 64, "class call takes nothing after it"),
            (["apps", "set", "app", "x", "call#note"], 64, "plain word"),
            (["apps", "set", "app", "a\"b", "call"], 64, "without '\"'"),
            (["apps", "set", "window", "x", "call"], 64, "takes app, binary, flatpak, not 'window'"),
            (["apps", "set", "app", "x"], 64, "needs a class or a category"),
            (["apps", "set", "app"], 64, "needs a name"),
            (["apps", "unset", "app", "x", "call"], 64, "takes no class"),
            (["apps", "frob"], 64, "not 'frob'"),
            (["apps", "set", "--json", "app", "x", "call"], 64, "--json"),
            (["apps", "unset", "app", "nobody"], 1, "no rule for app nobody in \(appsFile)"),
        ]
        for (arguments, status, reason) in cases {
            let result = try await mprisd(arguments)
            XCTAssertEqual(result.status, status, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", "\(arguments)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "one line: \(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(reason), "\(arguments): \(result.stderr)")
            XCTAssertEqual(try contents(), original, "\(arguments) left the file as it was")
        }
        var after = stat()
        XCTAssertEqual(stat(appsFile, &after), 0)
        XCTAssertEqual(after.st_ino, before.st_ino, "never replaced")
        XCTAssertEqual(try directoryListing(), ["apps"])

        // A file the daemon would refuse whole (not UTF-8) is not rewritten either.
        let garbage = Data([0x61, 0x70, 0x70, 0x20, 0xFF, 0xFE, 0x0A])
        try garbage.write(to: URL(fileURLWithPath: appsFile))
        let refused = try await mprisd(["apps", "set", "app", "x", "call"])
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("not changed"), refused.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: appsFile)), garbage)
    }

    func testALinkedFileIsWrittenThroughTheLink() async throws {
        let dotfiles = path("dotfiles")
        try FileManager.default.createDirectory(atPath: dotfiles, withIntermediateDirectories: true)
        try "# from my dotfiles\n".write(toFile: dotfiles + "/apps", atomically: false, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: path("config") + "/mprisd", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: appsFile, withDestinationPath: dotfiles + "/apps")
        let result = try await mprisd(["apps", "set", "binary", "zoom", "ignore"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: appsFile), dotfiles + "/apps", "still a link")
        XCTAssertEqual(try String(contentsOfFile: dotfiles + "/apps", encoding: .utf8), "# from my dotfiles\nbinary zoom = ignore\n")
    }

    /// Issue 24: 20 parallel `set` kept 3 rules, all printing "(added)". Each edit is a
    /// read-modify-write under the directory's lock, so every one sees the one before.
    func testConcurrentEditsKeepEveryRule() async throws {
        try write("# mine\n" + (0..<10).map { "app old\($0) = ignore\n" }.joined())
        let sets = try await runAll((0..<20).map { ["apps", "set", "app", "new\($0)", "mixing"] })
        XCTAssertEqual(sets.filter { $0.status == 0 }.count, 20, sets.map(\.stderr).joined())
        var rules = try contents().split(separator: "\n").map(String.init)
        XCTAssertEqual(rules.count, 31, "every rule kept:\n\(rules.joined(separator: "\n"))")
        XCTAssertEqual(Set((0..<20).map { "app new\($0) = mixing" }).subtracting(rules), [])
        XCTAssertEqual(Set(sets.map(\.stdout)).count, 20, "each added on a line of its own")

        let mixed = try await runAll((0..<10).map { ["apps", "unset", "app", "old\($0)"] }
                                     + (0..<10).map { ["apps", "set", "app", "later\($0)", "call"] })
        XCTAssertEqual(mixed.filter { $0.status == 0 }.count, 20, mixed.map(\.stderr).joined())
        rules = try contents().split(separator: "\n").map(String.init)
        XCTAssertEqual(rules.filter { $0.hasPrefix("app old") }, [], "every unset done")
        XCTAssertEqual(Set((0..<10).map { "app later\($0) = call" }).subtracting(rules), [], "every set kept")
        XCTAssertEqual(rules.count, 31)
        XCTAssertEqual(try directoryListing(), ["apps"], "no temporary file left behind")
    }

    /// An edit that cannot have the lock (another one stopped mid-edit) gives up after a bound,
    /// says why, and changes nothing.
    func testAnEditWaitsForTheLockOnlySoLong() async throws {
        try write("app a = call\n")
        let directory = open(path("config") + "/mprisd", O_RDONLY | O_DIRECTORY)
        XCTAssertGreaterThanOrEqual(directory, 0)
        defer { close(directory) }
        XCTAssertEqual(flock(directory, LOCK_EX), 0)
        let refused = try await mprisd(["apps", "set", "app", "b", "call"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("held the lock on \(path("config"))/mprisd for 5 s"), refused.stderr)
        XCTAssertTrue(refused.stderr.hasSuffix("not changed\n"), refused.stderr)
        XCTAssertEqual(try contents(), "app a = call\n")
        flock(directory, LOCK_UN)
        let done = try await mprisd(["apps", "set", "app", "b", "call"])
        XCTAssertEqual(done.status, 0, done.stderr)
    }

    private func runAll(_ commands: [[String]]) async throws -> [ProgramResult] {
        let program = Products.path("mprisd")
        let environment = environment()
        return try await withThrowingTaskGroup(of: ProgramResult.self) { group in
            for command in commands {
                group.addTask { try await runProgram(program, command, environment: environment, timeout: .seconds(20)) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    func testWithoutADaemonTheRulesAreListedAndItSaysSo() async throws {
        try write("# rules\napp \"ZOOM VoiceEngine\" = call\nbinary zoom = bogus\nflatpak org.example.Tts = playback voicePrompt duckOthers\n")
        let text = try await mprisd(["apps"])
        XCTAssertEqual(text.status, 69, "EX_UNAVAILABLE, as mprisd status: \(text.stderr)")
        XCTAssertTrue(text.stderr.contains("no policy daemon"), text.stderr)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "Rules  \(appsFile)", text.stdout)
        XCTAssertFalse(text.stdout.contains("Apps"), "no daemon: no apps table")
        XCTAssertEqual(lines[1].split(separator: " ").map(String.init), ["LINE", "MATCH", "ACTION"])
        XCTAssertEqual(lines[2].split(separator: " ", maxSplits: 1).first, "2")
        XCTAssertTrue(lines[2].contains("app \"ZOOM VoiceEngine\"") && lines[2].hasSuffix(" call"), lines[2])
        XCTAssertTrue(lines[3].hasPrefix("  4 ") && lines[3].hasSuffix("playback voicePrompt duckOthers"), lines[3])
        XCTAssertTrue(lines.contains("Problems"), text.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("  \(appsFile):3: 'bogus' is neither a class") }, text.stdout)

        let json = try await mprisd(["apps", "--json"])
        XCTAssertEqual(json.status, 69, json.stderr)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(document["daemon"] as? Bool, false)
        XCTAssertNil(document["apps"], "no daemon: no apps")
        let rulesFile = try XCTUnwrap(document["rulesFile"] as? [String: Any])
        XCTAssertEqual(rulesFile["path"] as? String, appsFile)
        let rules = try XCTUnwrap(rulesFile["rules"] as? [[String: Any]])
        XCTAssertEqual(rules.count, 2)
        XCTAssertEqual(rules[0]["line"] as? Int, 2)
        XCTAssertEqual(rules[0]["match"] as? String, "app")
        XCTAssertEqual(rules[0]["name"] as? String, "ZOOM VoiceEngine")
        XCTAssertEqual(rules[0]["action"] as? String, "call")
        XCTAssertEqual(rules[1]["action"] as? String, "playback voicePrompt duckOthers")
        let problems = try XCTUnwrap(rulesFile["problems"] as? [String])
        XCTAssertEqual(problems.count, 1)
        XCTAssertTrue(problems[0].hasPrefix("\(appsFile):3: "), problems[0])

        // No file at all: no rules, and still no daemon.
        try FileManager.default.removeItem(atPath: appsFile)
        let empty = try await mprisd(["apps"])
        XCTAssertEqual(empty.status, 69)
        XCTAssertEqual(empty.stdout, "Rules  \(appsFile)\n  none\n")
    }

    /// A status document with known apps, served as `GetStatus` under the daemon's bus name on
    /// the test's bus (for what the daemon will report once it classifies apps).
    /// The connection stays open (and the name owned) until the test ends.
    private func serveStatus(_ json: String) throws {
        let connection = try connect()
        _ = try connection.export(try ObjectPath(Self.policyPath), interfaces: [
            Interface(Self.policyInterface, methods: [
                .immediate("GetStatus", outputs: [Argument("status", .string)]) { _ in [.string(json)] },
            ]),
        ])
        _ = try connection.requestNameAndWait(Self.policyName)
    }

    private static let statusWithApps = """
        {"version": 1, "silentMode": false, "locked": false, "route": {"outputs": [], "available": []},
         "sessions": [], "players": [],
         "apps": [
          {"application": "Chromium", "binary": "chromium", "appClass": "mixing", "reason": "default",
           "state": "inactive", "streams": [], "present": false},
          {"application": "ZOOM VoiceEngine", "binary": "zoom", "pid": 4242, "appClass": "call",
           "configuration": "playAndRecord/voiceChat", "reason": "name table: ZOOM VoiceEngine", "session": 7,
           "state": "active", "streams": ["capture 3", "playback 4"], "present": true},
          {"application": "evil\\u001b[2Jname", "binary": "paplay", "pid": 4300, "role": "music", "appClass": "media",
           "reason": "role: music", "session": 8, "state": "interrupted by 7", "streams": ["playback 12"], "present": true}
         ]}
        """

    func testTheAppsTableAndJSONFromTheDaemonsStatus() async throws {
        try write("app \"ZOOM VoiceEngine\" = call\n")
        try serveStatus(Self.statusWithApps)

        let text = try await mprisd(["apps"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertFalse(text.stdout.contains("\u{1B}"), "names from outside are escaped, no colour off a terminal")
        let lines = text.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(lines.first, "Apps")
        XCTAssertEqual(lines[1].split(separator: " ").map(String.init),
                       ["APP", "BINARY", "PID", "ROLE", "CLASS", "WHY", "SESSION", "STATE"])
        XCTAssertTrue(lines[2].hasPrefix("  ZOOM VoiceEngine ") && lines[2].hasSuffix(" active"), "present first: \(lines[2])")
        XCTAssertTrue(lines[3].hasPrefix("  evil\\x1b[2Jname "), "the escape shown, not sent: \(lines[3])")
        XCTAssertTrue(lines[3].hasSuffix("interrupted by 7"), lines[3])
        XCTAssertTrue(lines[4].hasPrefix("  Chromium ") && lines[4].hasSuffix(" gone"), "gone apps last: \(lines[4])")
        XCTAssertEqual(lines[5], "")
        XCTAssertEqual(lines[6], "Rules  \(appsFile)")

        let json = try await mprisd(["apps", "--json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(Set(document.keys), ["apps", "daemon", "rulesFile"])
        XCTAssertEqual(document["daemon"] as? Bool, true)
        let apps = try XCTUnwrap(document["apps"] as? [[String: Any]])
        XCTAssertEqual(apps.map { $0["application"] as? String }, ["ZOOM VoiceEngine", "evil\u{1B}[2Jname", "Chromium"],
                       "present first; JSON keeps the names as they are")
        XCTAssertEqual(apps[0]["pid"] as? Int, 4242)
        XCTAssertEqual(apps[0]["appClass"] as? String, "call")
        XCTAssertEqual(apps[0]["reason"] as? String, "name table: ZOOM VoiceEngine")
        XCTAssertEqual(apps[0]["session"] as? Int, 7)
        XCTAssertEqual(apps[0]["streams"] as? [String], ["capture 3", "playback 4"])
        XCTAssertEqual(apps[2]["present"] as? Bool, false)
        let rules = try XCTUnwrap((document["rulesFile"] as? [String: Any])?["rules"] as? [[String: Any]])
        XCTAssertEqual(rules.first?["name"] as? String, "ZOOM VoiceEngine")
    }

    func testADaemonWithoutAppsSaysNone() async throws {
        try serveStatus("""
            {"version": 1, "silentMode": false, "locked": false, "route": {"outputs": [], "available": []},
             "sessions": [], "players": []}
            """)
        let text = try await mprisd(["apps"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertEqual(text.stdout, "Apps  none\n\nRules  \(appsFile)\n  none\n")
        let json = try await mprisd(["apps", "--json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertTrue(json.stdout.contains("\"daemon\" : true"), json.stdout)
        XCTAssertFalse(json.stdout.contains("\"apps\""), json.stdout)
    }
}
