@testable import AppClassification
@testable import AudioPolicyDaemon
import AudioServer
import Foundation
import XCTest

/// The built-in table of apps that tag nothing.
final class KnownAppsTests: XCTestCase {
    private func stream(_ name: String, _ direction: StreamDirection) -> AudioStream {
        AudioStream(id: StreamID(direction, 1), applicationName: name)
    }

    private let calls = ["ZOOM VoiceEngine", "WEBRTC VoiceEngine", "Signal Calling", "Telegram Desktop",
                         "linphone", "Mumble", "Skype"]
    private let browserInputs = ["Chromium input", "Google Chrome input", "Brave input", "Microsoft Edge input",
                                 "Vivaldi input", "Firefox"]

    func testCallClientsAreCallsInBothDirections() {
        for name in calls {
            for direction in [StreamDirection.playback, .capture] {
                let entry = KnownApps.entry(for: stream(name, direction))
                XCTAssertEqual(entry?.name, name)
                XCTAssertEqual(entry?.isHeuristic, false, name)
            }
            XCTAssertNotNil(KnownApps.entry(for: stream(name.uppercased(), .capture)), "case: \(name)")
        }
    }

    func testBrowserInputsAreHeuristicCapturesOnly() {
        for name in browserInputs {
            XCTAssertEqual(KnownApps.entry(for: stream(name, .capture))?.isHeuristic, true, name)
            XCTAssertNil(KnownApps.entry(for: stream(name, .playback)), name)
        }
        // The browsers' playback ("Chromium" plays, "Chromium input" records) is in no table.
        XCTAssertNil(KnownApps.entry(for: stream("Chromium", .capture)))
    }

    func testTheTableIsExactlyTheDocumentedOne() {
        XCTAssertEqual(KnownApps.entries.map(\.name), calls + browserInputs)
    }

    func testOtherNamesAreNotInTheTable() {
        for name in ["paplay", "ZOOM", "Chromium input 2", "", "mpv"] {
            XCTAssertNil(KnownApps.entry(for: stream(name, .capture)), name)
        }
        XCTAssertNil(KnownApps.entry(for: AudioStream(id: StreamID(.capture, 1), binary: "zoom")))
    }

    /// docs/calls-and-prompts.md documents the table: every entry's name is in it.
    func testTheCallsAndPromptsPageListsEveryEntry() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let page = try String(contentsOf: root.appendingPathComponent("docs/calls-and-prompts.md"), encoding: .utf8)
        for entry in KnownApps.entries {
            XCTAssertTrue(page.contains("\"\(entry.name)\""), entry.name)
        }
    }
}
