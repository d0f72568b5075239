import Foundation
import TestSupport
import XCTest

/// `mprisd apps` against the real daemon and a real PulseAudio: a rule written with `mprisd apps
/// set` classifies a real `paplay` stream, and the app shows with the class, the rule's line as
/// the reason, its session and state; once its stream is gone it is listed last as `gone`.
final class DaemonAppsListTests: StreamTestCase {
    private struct AppsDocument: Decodable {
        struct App: Decodable {
            var application: String
            var appClass: String
            var reason: String
            var session: UInt64?
            var state: String
            var present: Bool
        }

        var daemon: Bool
        var apps: [App]?
    }

    private func appsDocument() async throws -> AppsDocument {
        let result = try await mprisd(["apps", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        return try JSONDecoder().decode(AppsDocument.self, from: Data(result.stdout.utf8))
    }

    func testARuleWrittenWithAppsSetClassifiesARealStream() async throws {
        let server = try await startPulse(.pulseAudio)
        try await startStreamDaemon()
        let first = try await appsDocument()
        XCTAssertTrue(first.daemon)
        XCTAssertNotNil(first.apps, "the daemon reports its apps")
        let set = try await mprisd(["apps", "set", "app", "E2E Tone", "game"])
        XCTAssertEqual(set.status, 0, set.stderr)
        await waitForDaemonLog("apps file reloaded: 1 rules", timeout: .seconds(10))

        let stream = try PlayingStream(on: server, role: "music", applicationName: "e2e tone")
        var shown: AppsDocument.App?
        try await waitUntil("mprisd apps shows the stream's app", timeout: .seconds(15)) {
            shown = try await self.appsDocument().apps?.first { $0.application == "e2e tone" && $0.present }
            return shown != nil
        }
        XCTAssertEqual(shown?.appClass, "game", "the rule, not the role (music), decides")
        XCTAssertTrue(shown?.reason.contains("rule") == true && shown?.reason.contains("1") == true, "\(String(describing: shown))")
        XCTAssertNotNil(shown?.session)

        let text = try await mprisd(["apps"])
        XCTAssertEqual(text.status, 0, text.stderr)
        let row = try XCTUnwrap(text.stdout.split(separator: "\n").first { $0.hasPrefix("  e2e tone ") }, text.stdout)
        XCTAssertTrue(row.contains(" game "), String(row))

        stream.stop()
        try await waitUntil("the app is listed as gone", timeout: .seconds(15)) {
            try await self.appsDocument().apps?.contains { $0.application == "e2e tone" && !$0.present } == true
        }
        let gone = try await mprisd(["apps"])
        XCTAssertTrue(gone.stdout.split(separator: "\n").contains { $0.hasPrefix("  e2e tone ") && $0.hasSuffix(" gone") },
                      gone.stdout)
    }
}
