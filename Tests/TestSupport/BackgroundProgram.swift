import Foundation
import Synchronization

/// A real program running in the background of a test (a player, a proxy, a mock service): its
/// output is collected as it comes, it can be signalled, and it is killed (SIGKILL) when the
/// object goes away, so no test leaves a process behind.
public final class BackgroundProgram: Sendable {
    private final class Collected: Sendable {
        let output = Mutex((stdout: Data(), stderr: Data()))
        let exitStatus = Mutex<Int32?>(nil)
    }

    private let process: Process
    private let collected = Collected()
    private let exits: AsyncStream<Int32>

    public init(_ path: String, _ arguments: [String], environment: [String: String]? = nil) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardInput = FileHandle.nullDevice
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self, bufferingPolicy: .bufferingNewest(1))
        exits = stream
        let collected = self.collected
        process.terminationHandler = { finished in
            collected.exitStatus.withLock { $0 = finished.terminationStatus }
            continuation.yield(finished.terminationStatus)
            continuation.finish()
        }
        try process.run()
        Thread.detachNewThread {
            while case let chunk = out.fileHandleForReading.availableData, !chunk.isEmpty {
                collected.output.withLock { $0.stdout.append(chunk) }
            }
        }
        Thread.detachNewThread {
            while case let chunk = err.fileHandleForReading.availableData, !chunk.isEmpty {
                collected.output.withLock { $0.stderr.append(chunk) }
            }
        }
    }

    deinit {
        kill()
    }

    public var pid: Int32 { process.processIdentifier }
    public var stdout: String { collected.output.withLock { String(decoding: $0.stdout, as: UTF8.self) } }
    public var stderr: String { collected.output.withLock { String(decoding: $0.stderr, as: UTF8.self) } }
    public var isRunning: Bool { collected.exitStatus.withLock { $0 == nil } }

    public func signal(_ number: Int32) {
        if isRunning { Foundation.kill(process.processIdentifier, number) }
    }

    /// SIGKILL, if still running.
    public func kill() {
        signal(SIGKILL)
    }

    /// Waits for the exit (killing the program after `timeout`); returns its status.
    public func waitForExit(timeout: Duration = .seconds(10)) async -> Int32 {
        if let status = collected.exitStatus.withLock({ $0 }) { return status }
        let pid = process.processIdentifier
        let killer = Task {
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            Foundation.kill(pid, SIGKILL)
        }
        defer { killer.cancel() }
        for await status in exits { return status }
        return collected.exitStatus.withLock { $0 } ?? -1
    }

    /// Voluntary and involuntary context switches of all threads so far (`/proc/PID/task/*/status`):
    /// how often the program woke up.
    public func contextSwitches() -> Int {
        let tasks = "/proc/\(pid)/task"
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks) else { return 0 }
        var total = 0
        for thread in threads {
            guard let text = try? String(contentsOfFile: "\(tasks)/\(thread)/status", encoding: .utf8) else { continue }
            for line in text.split(separator: "\n") where line.hasSuffix("") && line.contains("ctxt_switches") {
                total += Int(line.split(separator: "\t").last.map(String.init)?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0
            }
        }
        return total
    }
}
