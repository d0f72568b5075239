import Foundation
import Synchronization

/// A private `dbus-daemon` for one test: its own socket, no service activation (unless a service
/// directory is given), torn down with the object. Tests talk to it through `address`, never to
/// the machine's buses.
public final class TestBus: @unchecked Sendable {  // invariant: `process` is only stopped through `stop()`, which is idempotent under `lock`
    public enum Kind: String, Sendable { case session, system }

    public let address: String
    public let directory: URL
    private let process: BackgroundProcess
    private let lock = NSLock()
    private var stopped = false

    /// - Parameters:
    ///   - serviceDirectory: a `<servicedir>` for D-Bus activation; nil: nothing is auto-started.
    ///   - environment: the daemon's environment, which activated services inherit.
    public init(_ kind: Kind = .session, serviceDirectory: String? = nil,
                environment: [String: String]? = nil) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("mprisd-bus-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("bus.conf")
        // No <servicedir> unless asked: nothing is auto-started. Everyone may own and talk to anything.
        let services = serviceDirectory.map { "<servicedir>\($0)</servicedir>" } ?? ""
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>\(kind.rawValue)</type>
          <listen>unix:dir=\(directory.path)</listen>
          <auth>EXTERNAL</auth>
          \(services)
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
        // The address is the first line of output; the daemon keeps running, reaped by its own
        // thread (BackgroundProcess), never by Foundation's Process.
        let firstLine = AddressLine()
        process = try BackgroundProcess(name: "dbus-daemon", "/usr/bin/dbus-daemon",
                                        ["--config-file=\(config.path)", "--nofork", "--nopidfile", "--print-address=1"],
                                        environment: environment, onLine: { firstLine.set($0) })
        guard let text = firstLine.wait(seconds: 10), !text.isEmpty else {
            process.stop()
            throw TestSupportError("dbus-daemon printed no address: \(process.standardError)")
        }
        address = text
    }

    /// The daemon's process id (to kill it in disconnection tests).
    public var pid: Int32 { process.pid }

    /// What the bus and the services it started wrote on standard error (their last 64 KiB),
    /// for failure messages.
    public var log: String { process.standardError }

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
        process.stop()  // SIGKILL and reap: a child started from a test thread may have SIGTERM blocked
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

/// The first line a program prints, handed from its reader thread to the thread waiting for it.
private final class AddressLine: Sendable {
    private let line = Mutex<String?>(nil)
    private let ready = DispatchSemaphore(value: 0)

    func set(_ text: String) {
        let first = line.withLock { current -> Bool in
            guard current == nil else { return false }
            current = text.trimmingCharacters(in: .whitespacesAndNewlines)
            return true
        }
        if first { ready.signal() }
    }

    func wait(seconds: Int) -> String? {
        guard ready.wait(timeout: .now() + .seconds(seconds)) == .success else { return nil }
        return line.withLock { $0 }
    }
}
