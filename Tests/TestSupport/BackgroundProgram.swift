import Foundation

/// A real program running in the background of a test (a player, a proxy): its output collected as
/// it comes, signals, exit status, and wake-up counting. Killed (SIGKILL) when the object goes away,
/// so no test leaves a process behind.
public final class BackgroundProgram: Sendable {
    private let process: BackgroundProcess

    public init(_ path: String, _ arguments: [String], environment: [String: String]? = nil) throws {
        process = try BackgroundProcess(path, arguments, environment: environment)
    }

    deinit {
        process.stop()
    }

    public var pid: Int32 { process.pid }
    public var stdout: String { process.standardOutput }
    public var stderr: String { process.standardError }
    public var isRunning: Bool { process.isRunning }

    public func signal(_ number: Int32) {
        if isRunning { Foundation.kill(process.pid, number) }
    }

    /// SIGKILL, if still running.
    public func kill() {
        process.stop()
    }

    /// Waits for the exit (killing the program after `timeout`); returns its status.
    public func waitForExit(timeout: Duration = .seconds(10)) async -> Int32 {
        await process.waitForExit(timeout: timeout)
    }

    /// Voluntary and involuntary context switches of all threads so far (`/proc/PID/task/*/status`):
    /// how often the program woke up.
    public func contextSwitches() -> Int {
        let tasks = "/proc/\(pid)/task"
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks) else { return 0 }
        var total = 0
        for thread in threads {
            guard let text = try? String(contentsOfFile: "\(tasks)/\(thread)/status", encoding: .utf8) else { continue }
            for line in text.split(separator: "\n") where line.contains("ctxt_switches") {
                total += Int(line.split(separator: "\t").last.map(String.init)?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0
            }
        }
        return total
    }
}
