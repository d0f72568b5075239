import Foundation

/// A private `dbus-daemon` for one test: its own socket, no service activation, torn down with the
/// object. Tests talk to it through `address`, never to the machine's buses.
public final class TestBus: @unchecked Sendable {  // invariant: `process` is only stopped through `stop()`, which is idempotent under `lock`
    public enum Kind: String, Sendable { case session, system }

    public let address: String
    public let directory: URL
    private let process: Process
    private let lock = NSLock()
    private var stopped = false

    public init(_ kind: Kind = .session) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("mprisd-bus-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("bus.conf")
        // No <servicedir>: nothing is ever auto-started. Everyone may own and talk to anything.
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>\(kind.rawValue)</type>
          <listen>unix:dir=\(directory.path)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow user="*"/>
            <allow own="*"/>
            <allow send_destination="*" eavesdrop="true"/>
            <allow receive_sender="*"/>
            <allow eavesdrop="true"/>
          </policy>
          <limit name="max_replies_per_connection">50000</limit>
          <limit name="max_incoming_bytes">1000000000</limit>
          <limit name="max_outgoing_bytes">1000000000</limit>
        </busconfig>
        """.write(to: config, atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        process.arguments = ["--config-file=\(config.path)", "--nofork", "--nopidfile", "--print-address=1"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else {
            process.terminate()
            throw TestSupportError("dbus-daemon printed no address")
        }
        address = text
    }

    /// The daemon's process id (to kill it in disconnection tests).
    public var pid: Int32 { process.processIdentifier }

    /// Environment for programs that should use this bus as their session (or system) bus.
    public var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = address
        return env
    }

    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        if process.isRunning {
            // SIGKILL: a child started from a test thread may have SIGTERM blocked.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    deinit {
        stop()
    }
}

public struct TestSupportError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
