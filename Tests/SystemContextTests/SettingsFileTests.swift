import Foundation
import SystemContext
import XCTest

/// Files the user controls are read without blocking, whole or not at all, and parsed in linear
/// time; messages quote short, escaped excerpts.
final class SettingsFileTests: XCTestCase {
    private var directory: String!

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "mprisd-settings-file-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        if let directory { try? FileManager.default.removeItem(atPath: directory) }
    }

    private func file(_ name: String) -> String { directory + "/" + name }

    func testAFIFOIsRefusedAtOnceWithOneLineNamingIt() throws {
        let fifo = file("silent")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let started = ContinuousClock.now
        var problems: [SettingsFileProblem] = []
        XCTAssertNil(StateFile(path: fifo).read { problems.append($0) })
        XCTAssertEqual(problems, [.notRegularFile(path: fifo)])
        XCTAssertEqual(problems.first?.description, "\(fifo): not a regular file; ignored")
        let config = ConfigFile.load(path: fifo)
        XCTAssertEqual(config.entries, [])
        XCTAssertEqual(config.problems, ["\(fifo): not a regular file; ignored"])
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(1), "nothing waited for a writer")
    }

    func testADirectoryIsRefusedAndASymlinkToAFileIsRead() throws {
        XCTAssertThrowsError(try SettingsFile.read(directory)) { error in
            XCTAssertEqual(error as? SettingsFileProblem, .notRegularFile(path: directory))
        }
        try "on\n".write(toFile: file("real"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: file("link"), withDestinationPath: file("real"))
        XCTAssertEqual(StateFile(path: file("link")).read(), "on")
        XCTAssertNil(try SettingsFile.read(file("absent")))
    }

    func testAFileOverTheLimitIsRefusedWholeNeverCut() throws {
        // A valid first line, then enough lines to pass 1 MiB: none of it may be used.
        let line = "play.volume = 0.5\n"
        let text = String(repeating: line, count: SettingsFile.sizeLimit / line.utf8.count + 1)
        try text.write(toFile: file("config"), atomically: true, encoding: .utf8)
        let config = ConfigFile.load(path: file("config"))
        XCTAssertEqual(config.entries, [])
        XCTAssertEqual(config.problems, ["\(file("config")): larger than 1 MiB; ignored"])

        let fits = String(repeating: line, count: SettingsFile.sizeLimit / line.utf8.count)
        try fits.write(toFile: file("config"), atomically: true, encoding: .utf8)
        XCTAssertEqual(ConfigFile.load(path: file("config")).problems, [], "1 MiB itself is fine")
    }

    func testABinaryFileIsRefusedInOneLine() throws {
        var bytes = [UInt8](repeating: 0, count: 90_000)
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 7919 &+ index >> 3) }
        try Data(bytes).write(to: URL(fileURLWithPath: file("config")))
        let config = ConfigFile.load(path: file("config"))
        XCTAssertEqual(config.problems, ["\(file("config")): not UTF-8 text; ignored"])
        XCTAssertEqual(config.entries, [])
    }

    func testCRLFAndLoneCRLineEndsAreLineEnds() {
        let config = ConfigFile(parsing: "play.volume = 0.5\r\nplay.name = crlf\r\n\r\nplay.loop = track\rplay.shuffle = true\r",
                                path: "/c")
        XCTAssertEqual(config.problems, [])
        XCTAssertEqual(config.entries.map(\.key), ["play.volume", "play.name", "play.loop", "play.shuffle"])
        XCTAssertEqual(config.entries.map(\.value), ["0.5", "crlf", "track", "true"])
        XCTAssertEqual(config.entries.map(\.line), [1, 2, 4, 5])
    }

    func testFiftyThousandOutputsAreAllParsed() {
        let count = 50_000
        let text = (0..<count).map { "output.o\(String($0, radix: 36))=null" }.joined(separator: "\n")
        XCTAssertLessThan(text.utf8.count, SettingsFile.sizeLimit)
        let started = ContinuousClock.now
        let (outputs, problems) = ConfiguredOutput.outputs(in: ConfigFile(parsing: text, path: "/c"))
        let elapsed = ContinuousClock.now - started
        XCTAssertEqual(problems, [])
        XCTAssertEqual(outputs.count, count)
        XCTAssertEqual(outputs.last, ConfiguredOutput(id: "o\(String(count - 1, radix: 36))", pcm: "null"))
        // Quadratic took minutes for this many in a debug build; linear takes well under a second.
        XCTAssertLessThan(elapsed, .seconds(5), "parsing is linear")
    }

    func testMessagesQuoteAShortEscapedExcerpt() {
        let long = String(repeating: "x", count: 120_000)
        let config = ConfigFile(parsing: "\(long)\n\u{1B}[31mred \u{202E}=1\n", path: "/c")
        XCTAssertEqual(config.problems.count, 2)
        for problem in config.problems { XCTAssertLessThan(problem.count, 100, problem) }
        XCTAssertEqual(config.problems.first, "/c:1: expected 'key = value', got '\(String(repeating: "x", count: 40))…'")
        XCTAssertEqual(config.problems.last, "/c:2: '\\x1b[31mred \\u202e' is not a setting name")
        XCTAssertEqual(Excerpt.quoted("tab\there\nnew"), "'tab\\x09here\\x0anew'")
        XCTAssertEqual(Excerpt.quoted("bad \u{FFFD} byte"), "'bad \\ufffd byte'")
        XCTAssertEqual(Excerpt.quoted("café"), "'café'")
    }

    func testOutputProblemsAreCappedWithACount() {
        let text = (0..<30).map { "output.bad\($0) = two words" }.joined(separator: "\n")
        let (outputs, problems) = ConfiguredOutput.outputs(in: ConfigFile(parsing: text, path: "/c"))
        XCTAssertEqual(outputs, [])
        XCTAssertEqual(problems.count, ConfigFile.problemLimit + 1)
        XCTAssertEqual(problems.last, "/c: 10 more problems not shown")
    }
}
