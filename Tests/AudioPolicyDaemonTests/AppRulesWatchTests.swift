import AppClassification
import AudioPolicyDaemon
import Foundation
import SystemContext
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The daemon's apps file followed through inotify: a replacement (as `mprisd apps set` writes),
/// an edit in place and a removal each hand over the new rules once, with the file's problems
/// reported once per reload; a write that changes nothing and other files of the directory are
/// not reloads.
final class AppRulesWatchTests: XCTestCase {
    private var directory: String!

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "mprisd-apps-watch-\(UUID().uuidString.prefix(8))"
    }

    override func tearDown() {
        if let directory { try? FileManager.default.removeItem(atPath: directory) }
    }

    func testReloadsOnEveryChangeAndReportsProblemsOncePerReload() async throws {
        // The directory does not exist yet: the watch makes it (0700), as `mprisd apps set` would.
        let path = directory + "/mprisd/apps"
        let reloads = EventRecord<AppRules>()
        let warnings = EventRecord<String>()
        let watch = AppRulesWatch(path: path, warn: { warnings.append($0) }) { reloads.append($0) }
        defer { watch.stop() }
        XCTAssertEqual(watch.rules.rules, [], "no file: no rules")
        XCTAssertEqual(warnings.elements, [], "a missing file is no problem")
        var info = stat()
        XCTAssertEqual(stat(directory + "/mprisd", &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o700)

        let file = StateFile(path: path)
        try file.replace(contents: "# rules\napp \"ZOOM VoiceEngine\" = call\n")
        try await reloads.wait(for: "the first reload", timeout: .seconds(10)) { $0.count >= 1 ? true : nil }
        XCTAssertEqual(reloads.elements.last?.rules.map(\.match), [.app("ZOOM VoiceEngine")])
        XCTAssertEqual(watch.rules.rules.map(\.line), [2], "the current rules are the reloaded ones")

        // Another file in the directory is not the apps file; the same text again is no change.
        try StateFile(path: directory + "/mprisd/config").replace(contents: "play.volume = 0.5\n")
        try file.replace(contents: "# rules\napp \"ZOOM VoiceEngine\" = call\n")
        // A bad line: the reload reports it with its number.
        try file.replace(contents: "# rules\napp \"ZOOM VoiceEngine\" = call\n\napp x = bogus\nbinary zoom = ignore\n")
        try await reloads.wait(for: "the second reload", timeout: .seconds(10)) { $0.count >= 2 ? true : nil }
        XCTAssertEqual(reloads.elements[1].rules.map(\.line), [2, 5])
        let problems = try await warnings.wait(for: "the bad line", timeout: .seconds(5)) { $0.isEmpty ? nil : $0 }
        XCTAssertEqual(problems.count, 1, "\(problems)")
        XCTAssertTrue(problems[0].hasPrefix(path + ":4: 'bogus' is neither a class"), problems[0])

        try FileManager.default.removeItem(atPath: path)
        try await reloads.wait(for: "the removal", timeout: .seconds(10)) { $0.count >= 3 ? true : nil }
        XCTAssertEqual(reloads.elements[2].rules, [])
        XCTAssertEqual(watch.rules.rules, [])
        XCTAssertEqual(reloads.elements.count, 3, "the unchanged write and the other file were not reloads")
        XCTAssertEqual(warnings.elements.count, 1, "each problem once: \(warnings.elements)")
    }

    func testAnEditorWritingInPlaceIsOneReloadOfTheWholeText() async throws {
        let path = directory + "/apps"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let reloads = EventRecord<AppRules>()
        let watch = AppRulesWatch(path: path, warn: { _ in }) { reloads.append($0) }
        defer { watch.stop() }
        // Created, then written and closed: only the close counts (the new file is empty before).
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        for part in ["app a = call\n", "app b = game\n"] {
            XCTAssertEqual(part.withCString { Glibc.write(fd, $0, strlen($0)) }, part.utf8.count)
        }
        close(fd)
        let got = try await reloads.wait(for: "the reload", timeout: .seconds(10)) { $0.isEmpty ? nil : $0 }
        XCTAssertEqual(got.first?.rules.map(\.match), [.app("a"), .app("b")], "never a half-written file")
    }

    func testALinkedFileIsFollowedThroughItsTarget() async throws {
        let dotfiles = directory + "/dotfiles"
        let config = directory + "/config"
        try FileManager.default.createDirectory(atPath: dotfiles, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try StateFile(path: dotfiles + "/mprisd-apps").replace(contents: "app a = call\n")
        try FileManager.default.createSymbolicLink(atPath: config + "/apps", withDestinationPath: dotfiles + "/mprisd-apps")
        let reloads = EventRecord<AppRules>()
        let watch = AppRulesWatch(path: config + "/apps", warn: { _ in }) { reloads.append($0) }
        defer { watch.stop() }
        XCTAssertEqual(watch.rules.rules.map(\.match), [.app("a")])

        // The target replaced in its own directory (as `mprisd apps set` writes through the link).
        try StateFile(path: dotfiles + "/mprisd-apps").replace(contents: "app a = call\napp b = game\n")
        try await reloads.wait(for: "the target's change", timeout: .seconds(10)) { $0.count >= 1 ? true : nil }
        XCTAssertEqual(reloads.elements[0].rules.map(\.match), [.app("a"), .app("b")])
        // The link removed: no rules.
        try FileManager.default.removeItem(atPath: config + "/apps")
        try await reloads.wait(for: "the link's removal", timeout: .seconds(10)) { $0.count >= 2 ? true : nil }
        XCTAssertEqual(reloads.elements[1].rules, [])
    }

    func testTheRulesAtStartAndTheirProblemsAreReportedOnce() throws {
        let path = directory + "/apps"
        try StateFile(path: path).replace(contents: "app a = call\nnonsense\n")
        let warnings = EventRecord<String>()
        let watch = AppRulesWatch(path: path, warn: { warnings.append($0) }) { _ in }
        defer { watch.stop() }
        XCTAssertEqual(watch.rules.rules.map(\.match), [.app("a")])
        XCTAssertEqual(warnings.elements.count, 1)
        XCTAssertTrue(warnings.elements.first?.hasPrefix(path + ":2: ") == true, "\(warnings.elements)")
    }
}
