import Foundation

/// What a finished program left behind.
public struct ProgramResult: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String
}

/// Runs a real program (busctl, gdbus, dbus-send, playerctl, …) to completion and returns its status
/// and complete output, killing it after `timeout`.
///
/// Each pipe is read to its end on a thread of its own while the program runs, so no chunk can
/// still be in flight when the output is collected, and no thread of the cooperative pool blocks.
/// The timeout uses SIGKILL: a child spawned from a test thread inherits that thread's blocked
/// signals, SIGTERM included.
public func runProgram(_ path: String, _ arguments: [String], environment: [String: String]? = nil,
                       timeout: Duration = .seconds(30)) async throws -> ProgramResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    let (exits, exited) = AsyncStream.makeStream(of: Int32.self, bufferingPolicy: .bufferingNewest(1))
    process.terminationHandler = {
        exited.yield($0.terminationStatus)
        exited.finish()
    }
    try process.run()
    let pid = process.processIdentifier
    let killer = Task {
        guard (try? await Task.sleep(for: timeout)) != nil else { return }
        kill(pid, SIGKILL)
    }
    async let stdout = readToEnd(out.fileHandleForReading)
    async let stderr = readToEnd(err.fileHandleForReading)
    var status: Int32 = -1
    for await code in exits { status = code }
    killer.cancel()
    let (outData, errData) = await (stdout, stderr)
    return ProgramResult(status: status, stdout: String(decoding: outData, as: UTF8.self),
                         stderr: String(decoding: errData, as: UTF8.self))
}

private func readToEnd(_ handle: FileHandle) async -> Data {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: handle.readDataToEndOfFile()) }
    }
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
