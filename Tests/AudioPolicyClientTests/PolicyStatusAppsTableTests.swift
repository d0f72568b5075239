import AudioPolicyClient
import XCTest

/// The `Apps` table of `mprisd apps`, from hand-made status documents: columns, present apps
/// first, names from outside escaped and cut, the FLATPAK column only when needed, and the
/// document's `apps` field read back as written (and absent from an older daemon).
final class PolicyStatusAppsTableTests: XCTestCase {
    private let zoom = PolicyStatus.App(application: "ZOOM VoiceEngine", binary: "zoom", pid: 4242, appClass: "call",
                                        configuration: "playAndRecord/voiceChat", reason: "name table: ZOOM VoiceEngine",
                                        session: 7, state: "active", streams: ["capture 3", "playback 4"])
    private let gone = PolicyStatus.App(application: "Chromium", binary: "chrome", appClass: "mixing",
                                        configuration: "playback/default[mixWithOthers]", reason: "default",
                                        state: "inactive", present: false)
    private let music = PolicyStatus.App(application: "paplay", binary: "paplay", pid: 4300, role: "music",
                                         appClass: "media", configuration: "playback/default", reason: "role: music",
                                         session: 8, state: "interrupted by 7", streams: ["playback 12"])

    private func columns(_ line: String) -> [String] {
        line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    }

    func testColumnsAndPresentAppsFirst() {
        let status = PolicyStatus(apps: [gone, zoom, music])
        XCTAssertEqual(status.appsPresentFirst.map(\.application), ["ZOOM VoiceEngine", "paplay", "Chromium"])
        let lines = status.appsSection(colour: false)
        XCTAssertEqual(lines.first, "Apps")
        XCTAssertEqual(columns(lines[1]), ["APP", "BINARY", "PID", "ROLE", "CLASS", "WHY", "SESSION", "STATE"])
        XCTAssertTrue(lines[2].hasPrefix("  ZOOM VoiceEngine  zoom "), lines[2])
        XCTAssertTrue(lines[2].contains(" 4242 ") && lines[2].contains(" call ") && lines[2].contains("name table: ZOOM VoiceEngine")
                      && lines[2].hasSuffix(" 7        active"), lines[2])
        XCTAssertTrue(lines[3].contains(" music ") && lines[3].contains(" media ") && lines[3].hasSuffix("interrupted by 7"), lines[3])
        XCTAssertEqual(columns(lines[4]), ["Chromium", "chrome", "-", "-", "mixing", "default", "-", "gone"])
        XCTAssertEqual(lines.count, 5)
        XCTAssertFalse(lines.joined().contains("FLATPAK"))
    }

    func testACustomClassShowsTheRulesConfigurationAndAFlatpakAddsItsColumn() {
        let custom = PolicyStatus.App(application: "Twinkle", binary: "twinkle", flatpak: "org.example.Twinkle",
                                      appClass: "custom", configuration: "playAndRecord/voiceChat", reason: "rule line 3",
                                      session: 9, state: "inactive")
        let lines = PolicyStatus(apps: [custom]).appsSection(colour: false)
        XCTAssertEqual(columns(lines[1]), ["APP", "BINARY", "FLATPAK", "PID", "ROLE", "CLASS", "WHY", "SESSION", "STATE"])
        XCTAssertEqual(columns(lines[2]), ["Twinkle", "twinkle", "org.example.Twinkle", "-", "-", "playAndRecord/voiceChat",
                                           "rule", "line", "3", "9", "inactive"])
    }

    func testNamesFromOutsideAreEscapedAndCut() {
        let hostile = PolicyStatus.App(application: "evil\u{1B}[2J\nname" + String(repeating: "x", count: 100),
                                       binary: "b\u{07}", role: "ro\u{1B}le", appClass: "mixing", reason: "default",
                                       state: "inactive")
        let lines = PolicyStatus(apps: [hostile]).appsSection(colour: false)
        XCTAssertEqual(lines.count, 3, "one row: \(lines)")
        XCTAssertFalse(lines.joined().unicodeScalars.contains { $0.value < 0x20 }, "\(lines)")
        XCTAssertTrue(lines[2].contains("…"), "a long name is cut: \(lines[2])")
        XCTAssertLessThan(lines[2].count, 200)
    }

    func testNoAppsAndColour() {
        XCTAssertEqual(PolicyStatus().appsSection(colour: false), ["Apps  none"], "an older daemon reports no apps")
        XCTAssertEqual(PolicyStatus(apps: []).appsSection(colour: false), ["Apps  none"])
        let coloured = PolicyStatus(apps: [zoom, music]).appsSection(colour: true)
        XCTAssertTrue(coloured[2].hasSuffix("\u{1B}[32mactive\u{1B}[0m"), coloured[2])
        XCTAssertTrue(coloured[3].hasSuffix("\u{1B}[33minterrupted by 7\u{1B}[0m"), coloured[3])
    }

    func testTheDocumentCarriesAppsAndReadsWithoutThem() throws {
        let status = PolicyStatus(apps: [zoom, gone])
        XCTAssertEqual(try PolicyStatus.decode(json: status.json()), status)
        let older = try PolicyStatus.decode(json: PolicyStatus().json())
        XCTAssertNil(older.apps)
        XCTAssertFalse(PolicyStatus().json().contains("\"apps\""))
    }
}
