import Foundation

/// What a finished program left behind.
public struct ProgramResult: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String
}

/// Runs a real program (busctl, gdbus, dbus-send, playerctl, …) to completion and returns its status
/// and complete output, killing it (SIGKILL, with its process group) after `timeout`.
///
/// Started with `posix_spawn` and reaped by a thread of its own (`BackgroundProcess`), not with
/// Foundation's `Process`, whose termination notice was seen to go missing under load, hanging a test.
public func runProgram(_ path: String, _ arguments: [String], environment: [String: String]? = nil,
                       timeout: Duration = .seconds(30)) async throws -> ProgramResult {
    let process = try BackgroundProcess(path, arguments, environment: environment)
    let status = await process.waitForExit(timeout: timeout)
    return ProgramResult(status: status, stdout: process.standardOutput, stderr: process.standardError)
}

/// `eventually` for a synchronous test: polls `condition` on the calling thread (every 10 ms) until
/// it holds or `timeout` passes; returns whether it held.
public func eventuallyBlocking(timeout: Duration = .seconds(10), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else { return condition() }
        usleep(10_000)
    }
    return true
}

/// Polls `condition` until it holds or `timeout` passes (for state another process changes, where
/// no event exists to wait on). Returns whether it held.
public func eventually(timeout: Duration = .seconds(5), _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return try await condition()
}
