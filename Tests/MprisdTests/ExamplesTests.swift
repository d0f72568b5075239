import DBus
import Foundation
import TestSupport
import XCTest

/// The programs in Examples/ against a real daemon on a private bus: apps written against the
/// public products only (AudioPolicyClient, RemoteControl, SessionCore) share the speakers.
final class ExamplesTests: DaemonTestCase {
    private var examples: [BackgroundProcess] = []

    override func tearDown() {
        for example in examples { example.stop() }
        examples = []
        super.tearDown()
    }

    func testThePodcastFollowsTheMediaKeysPausesForACallAndResumesAfterIt() async throws {
        try await startDaemon()
        let (podcast, podcastSays) = try await startExample("podcast-example", session: "podcast")
        try podcast.send(line: "play")
        try await podcastSays.wait(forLine: "playing: Why Linux audio")

        try await playerctl("-p", "podcast", "pause")
        try await podcastSays.wait(forLine: "paused: Why Linux audio")
        try await playerctl("-p", "podcast", "play")
        try await podcastSays.wait(forLine: "playing: Why Linux audio", count: 2)
        try await playerctl("-p", "podcast", "next")
        try await podcastSays.wait(forLine: "playing: Sessions, explained")
        let title = try await playerctl("-p", "podcast", "metadata", "title")
        XCTAssertEqual(title, "Sessions, explained")

        let (call, callSays) = try await startExample("voip-call-example", session: "call")
        try call.send(line: "call")
        try await callSays.wait(forLine: "in a call")
        try await podcastSays.wait(forLine: "paused: Sessions, explained")
        try await podcastSays.wait(forLine: "interrupted")
        try call.send(line: "hang up")
        try await callSays.wait(forLine: "hung up")
        try await podcastSays.wait(forLine: "playing: Sessions, explained", count: 2)

        for example in [call, podcast] {
            example.closeInput()
            let status = await example.waitForExit(timeout: .seconds(10))
            XCTAssertEqual(status, 0, "\(example.name): \(example.standardError)")
        }
        try await waitForStatus("both sessions are gone") { $0.sessions.isEmpty }
    }

    /// Starts the example `product` with a channel to its standard input, and returns once the
    /// daemon has its session named `session`; its output lines are recorded.
    private func startExample(_ product: String, session: String) async throws -> (BackgroundProcess, EventRecord<String>) {
        let lines = EventRecord<String>()
        let process = try BackgroundProcess(Products.path(product), [], environment: environment(), stdin: true,
                                            onLine: { lines.append($0) })
        examples.append(process)
        try await waitForStatus("the daemon has the \(product)'s session") { status in
            status.sessions.contains { $0.name == session }
        }
        return (process, lines)
    }
}

private extension EventRecord where Element == String {
    /// Waits until `line` was printed `count` times.
    func wait(forLine line: String, count: Int = 1) async throws {
        try await wait(for: "'\(line)' ×\(count)", timeout: .seconds(5)) { lines in
            lines.filter { $0 == line }.count >= count ? true : nil
        }
    }
}
