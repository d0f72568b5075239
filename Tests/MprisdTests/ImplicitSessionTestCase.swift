import Foundation
import TestSupport
import XCTest

/// What the tests of implicit sessions (issue 15) share: apps that know nothing of mprisd, made
/// from real `paplay` and `parec` named and tagged as the real apps name and tag their streams.
class ImplicitSessionTestCase: StreamTestCase {
    /// A playback stream of an app called `name` (its `application.name`), with `role` if given.
    @discardableResult
    func startApp(_ name: String, role: String? = nil, seconds: Double = 60) throws -> BackgroundProcess {
        let file = try track("app-\(name.filter(\.isLetter))-\(UUID().uuidString.prefix(6)).wav", seconds: seconds)
        var arguments = ["--client-name=\(name)"]
        if let role { arguments.append("--property=media.role=\(role)") }
        let process = try BackgroundProcess("/usr/bin/paplay", arguments + [file], environment: pulseEnvironment)
        addTeardownBlock { process.stop() }
        return process
    }

    /// A capture stream (the microphone: the server's default source) of an app called `name`.
    @discardableResult
    func startRecording(_ name: String, role: String? = nil) throws -> BackgroundProcess {
        var command = "exec /usr/bin/parec --raw --client-name='\(name)'"
        if let role { command += " --property=media.role=\(role)" }
        let process = try BackgroundProcess("/bin/sh", ["-c", command + " > /dev/null"], environment: pulseEnvironment)
        addTeardownBlock { process.stop() }
        return process
    }

    /// A call app's microphone that it closes and opens again on request (`reopen(after:)`): one
    /// libpulse client process (`reopening_capture.py`), recording the default source.
    func startReopeningCapture(_ name: String) async throws -> ReopeningCapture {
        let script = Repository.path("Tests/Fixtures/ReopeningCapture/reopening_capture.py")
        let process = try BackgroundProcess(name: "reopening-capture", "/usr/bin/python3", [script, name],
                                            environment: pulseEnvironment, stdin: true)
        addTeardownBlock { process.stop() }
        let capture = ReopeningCapture(process: process)
        try await capture.waitForOpen(1)
        return capture
    }

    /// The sink input of the app called `name`.
    func waitForApp(_ name: String, _ what: String = "its stream", timeout: Duration = .seconds(10),
                    _ condition: @escaping (SinkInput) -> Bool = { _ in true }) async throws -> SinkInput {
        try await waitForSinkInput("\(name): \(what)", timeout: timeout) { $0.app == name && condition($0) }
    }

    /// Plain music that mixes (no role, no MPRIS: an unknown app), and its stream.
    func startUnknownMusic() async throws -> (BackgroundProcess, SinkInput) {
        let process = try startApp("jukebox")
        let stream = try await waitForApp("jukebox")
        return (process, stream)
    }
}

/// A running `reopening_capture.py`.
struct ReopeningCapture {
    let process: BackgroundProcess
    private(set) var opened = 1

    /// Closes the capture stream and opens a new one `gap` later; returns once it records.
    mutating func reopen(after gap: Duration) async throws {
        try process.send(line: "reopen \(gap.components.seconds * 1000 + gap.components.attoseconds / 1_000_000_000_000_000)")
        opened += 1
        try await waitForOpen(opened)
    }

    /// Closes the stream and ends the process.
    func stop() async {
        try? process.send(line: "stop")
        _ = await process.waitForExit(timeout: .seconds(5))
    }

    func waitForOpen(_ number: Int) async throws {
        let line = "open \(number)"
        let opened = await eventually(timeout: .seconds(10)) {
            process.standardOutput.split(separator: "\n").contains { $0 == line } || !process.isRunning
        }
        guard opened, process.isRunning else {
            throw TestSupportError("the capture did not open (\(line)): \(process.standardError)")
        }
    }
}
