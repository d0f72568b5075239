import Foundation
import SessionCore
import SystemContext
import TestSupport
import XCTest

/// The configuration file, atomic state files and their watcher (G-ROUTE-PICK's persistence).
final class SettingsTests: XCTestCase {
    private var directory: String!

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "mprisd-settings-\(UUID().uuidString.prefix(8))"
    }

    override func tearDown() {
        if let directory { try? FileManager.default.removeItem(atPath: directory) }
    }

    func testConfigLinesCommentsAndProblemsWithLineNumbers() {
        let config = ConfigFile(parsing: """
            # outputs
            output.dac = hw:CARD=DAC,DEV=0   # the USB DAC
            output.dac.name = USB DAC
            output.dac.type = usbAudio

            this line has no equals sign
            bad key! = 1
            output.hdmi = hdmi:0
            output.hdmi.type = television
            output.dac = hw:9
            output.ghost.type = lineOut
            output.two = a b
            """, path: "/c")
        XCTAssertEqual(config.entries.first?.line, 2)
        XCTAssertEqual(config.entries.first?.value, "hw:CARD=DAC,DEV=0", "comments and spaces are not part of a value")
        XCTAssertEqual(config.problems, ["/c:6: expected 'key = value', got 'this line has no equals sign'",
                                         "/c:7: 'bad key!' is not a setting name"])
        let (outputs, problems) = ConfiguredOutput.outputs(in: config)
        XCTAssertEqual(outputs, [ConfiguredOutput(id: "dac", pcm: "hw:CARD=DAC,DEV=0", name: "USB DAC", type: .usbAudio),
                                 ConfiguredOutput(id: "hdmi", pcm: "hdmi:0")])
        XCTAssertEqual(problems.count, 4, "\(problems)")
        XCTAssertTrue(problems.contains { $0.hasPrefix("/c:9:") && $0.contains("television") }, "\(problems)")
        XCTAssertTrue(problems.contains { $0.hasPrefix("/c:10:") && $0.contains("declared twice") }, "\(problems)")
        XCTAssertTrue(problems.contains { $0.hasPrefix("/c:11:") && $0.contains("ghost") }, "\(problems)")
        XCTAssertTrue(problems.contains { $0.hasPrefix("/c:12:") }, "\(problems)")
        XCTAssertTrue(outputs.allSatisfy { $0.port.pickOnly }, "configured outputs are used only when picked")
    }

    func testAMissingConfigFileIsEmpty() {
        let config = ConfigFile.load(path: directory + "/nothing/config")
        XCTAssertEqual(config.entries, [])
        XCTAssertEqual(config.problems, [])
    }

    func testStateFilesAreReplacedAtomicallyAndRemoved() throws {
        let file = StateFile(path: directory + "/deep/state/route")
        XCTAssertNil(file.read())
        try file.write("usb-dac")
        XCTAssertEqual(file.read(), "usb-dac")
        XCTAssertEqual(try String(contentsOfFile: file.path, encoding: .utf8), "usb-dac\n")
        try file.write("speaker")
        XCTAssertEqual(file.read(), "speaker")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: file.directory)
        XCTAssertEqual(leftovers, ["route"], "no temporary file is left behind")
        var info = stat()
        XCTAssertEqual(stat(file.directory, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o700, "the state directory is private")
        try file.remove()
        XCTAssertNil(file.read())
        try file.remove()  // removing twice is fine
    }

    func testAStateFileInAnUnwritablePlaceIsAClearError() {
        let file = StateFile(path: "/proc/mprisd-cannot/route")
        XCTAssertThrowsError(try file.write("x")) { error in
            XCTAssertTrue("\(error)".contains("/proc/mprisd-cannot"), "\(error)")
        }
    }

    func testTheWatcherSeesReplacementsAndRemovalButNotOtherFiles() async throws {
        let file = StateFile(path: directory + "/route")
        let seen = EventRecord<String?>()
        let watcher = try StateFileWatcher(file) { seen.append($0) }
        defer { watcher.stop() }
        try StateFile(path: directory + "/silent").write("on")
        try file.write("speaker")
        try await seen.wait(for: "change 1", timeout: .seconds(5)) { $0.count >= 1 ? true : nil }
        try RoutePick.write("usb-dac", to: file)
        try await seen.wait(for: "change 2", timeout: .seconds(5)) { $0.count >= 2 ? true : nil }
        try RoutePick.write(nil, to: file)
        try await seen.wait(for: "change 3", timeout: .seconds(5)) { $0.count >= 3 ? true : nil }
        XCTAssertEqual(seen.elements, ["speaker", "usb-dac", nil])
        XCTAssertNil(RoutePick.read(file))
    }
}
