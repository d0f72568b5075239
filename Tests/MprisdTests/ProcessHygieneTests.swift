import Foundation
import TestSupport
import XCTest

/// Nothing lost, nothing hangs: `mprisd` started the odd ways launchers start programs, next to a
/// frozen daemon, with a FIFO for a state file, writing to a full disk, killed without warning.
final class ProcessHygieneTests: DaemonTestCase {
    /// With standard output and error closed the bus socket would become fd 2 and the first log
    /// line would be written into the D-Bus connection.
    func testTheDaemonAndThePlayerServeWithStandardOutputAndErrorClosed() async throws {
        let daemon = try BackgroundProgram("/bin/sh", ["-c", "exec \"$0\" --verbose >&- 2>&-", Products.path("mprisd")],
                                           environment: environment())
        let owned = try await eventually(timeout: .seconds(10)) { try await self.policyOwner() != nil }
        XCTAssertTrue(owned, "the daemon owns its name")
        let status = try await cliStatus()
        XCTAssertFalse(status.silentMode)

        let file = try track("closed.wav", seconds: 1)
        let player = try BackgroundProgram(
            "/bin/sh", ["-c", "exec \"$0\" play --device null --name closed \"$1\" >&- 2>&-", Products.path("mprisd"), file],
            environment: environment())
        let watcher = try connect()
        try await waitUntil("the player's MPRIS name appears") { try await self.hasName("closed", on: watcher) }
        let played = await player.waitForExit(timeout: .seconds(15))
        XCTAssertEqual(played, 0, "the player played to the end")
        XCTAssertTrue(daemon.isRunning, "the daemon still serves")
        let after = try await mprisd(["status"])
        XCTAssertEqual(after.status, 0, after.stderr)
        daemon.kill()
    }

    /// SIGKILL leaves `mprisd run` no chance to pass anything on: the program must not outlive it.
    func testTheProgramDiesWithMprisdRunEvenOfSIGKILL() async throws {
        let runner = try run(["--", "sleep", "1000"])
        var child: Int32?
        let started = await eventually(timeout: .seconds(10)) {
            child = Self.children(of: runner.pid).first
            return child != nil
        }
        guard started, let child else { return XCTFail("mprisd run started no program: \(runner.stderr)") }
        kill(runner.pid, SIGKILL)
        let gone = await eventually(timeout: .seconds(1)) { !Self.isAlive(child) }
        if !gone { kill(child, SIGKILL) }
        XCTAssertTrue(gone, "the program (pid \(child)) died with mprisd run")
    }

    /// A daemon that owns its name but never answers (here: stopped) is given up on within about
    /// a second, with a message, instead of the full timeout of every call.
    func testRunDoesNotWaitLongForAFrozenDaemon() async throws {
        let daemon = try await startDaemon()
        kill(daemon.pid, SIGSTOP)
        defer { kill(daemon.pid, SIGCONT) }
        let started = ContinuousClock.now
        let result = try await mprisd(["run", "--", "true"])
        let elapsed = ContinuousClock.now - started
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("the policy daemon (org.mprisd.AudioPolicy) does not answer"), result.stderr)
        XCTAssertLessThan(elapsed, .milliseconds(3_000), "the program ran without waiting for the frozen daemon")
    }

    /// A FIFO where silent mode is kept would block the daemon in `open()` for ever.
    func testAFIFOAsTheSilentFileDoesNotBlockTheDaemon() async throws {
        let directory = path("state") + "/mprisd"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(directory + "/silent", 0o600), 0)
        let daemon = try await startDaemon()
        let status = try await cliStatus()
        XCTAssertFalse(status.silentMode, "a refused file means the default")
        XCTAssertEqual(daemon.stderr.split(separator: "\n").filter { $0.contains("/silent") },
                       ["\(directory)/silent: not a regular file; ignored"], daemon.stderr)
        // `mprisd silent on` replaces the FIFO with a file, which the daemon follows.
        let silent = try await mprisd(["silent", "on"])
        XCTAssertEqual(silent.status, 0, silent.stderr)
        try await waitForStatus("silent mode is on") { $0.silentMode }
    }

    /// A result that could not be written is a failure (`mprisd status > /dev/full`).
    func testStatusIntoAFullDiskFails() async throws {
        try await startDaemon()
        for arguments in [["status"], ["status", "--json"]] {
            let result = try await runProgram("/bin/sh", ["-c", "exec \"$0\" \"$@\" > /dev/full", Products.path("mprisd")] + arguments,
                                              environment: environment())
            XCTAssertEqual(result.status, 1, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderr, "mprisd: cannot write the output: No space left on device\n", "\(arguments)")
        }
    }

    // MARK: Processes

    private static func children(of pid: Int32) -> [Int32] {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8) else { return [] }
        return text.split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Running (a zombie waiting for its new parent to reap it counts as gone).
    private static func isAlive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first != "Z"
    }
}
