import Foundation
import Synchronization

/// A real `dbus-monitor` on a test bus (started by the test, ended by it by its pid), its output
/// parsed into messages: the header line, and the indented body with whitespace collapsed.
public final class BusMonitor: Sendable {
    public struct Entry: Sendable {
        public var header: String
        public var body: String

        /// A `key=value` field of the header (`sender`, `member`…).
        public func field(_ key: String) -> String? {
            header.split(separator: " ").lazy
                .first { $0.hasPrefix(key + "=") }
                .map { String($0.dropFirst(key.count + 1).trimmingCharacters(in: CharacterSet(charactersIn: ";"))) }
        }

        /// The string arguments of the body, in order (the values of `string "…"`).
        public var strings: [String] {
            body.components(separatedBy: "string \"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        }
    }

    private let process: BackgroundProcess
    private let output: Lines

    /// Starts the monitor on the bus at `address` with dbus-monitor match `rules`.
    public init(address: String, rules: [String]) throws {
        let output = Lines()
        self.output = output
        process = try BackgroundProcess(name: "dbus-monitor", "/usr/bin/dbus-monitor", ["--address", address] + rules,
                                        onLine: { line in output.lines.withLock { $0.append(line) } })
    }

    deinit { process.stop() }

    /// Ends the monitor (SIGKILL, reaped).
    public func stop() { process.stop() }

    /// Whether the monitor has become one: dbus-monitor prints the loss of its own unique name
    /// when the bus turns it into a monitor.
    public var isListening: Bool { output.lines.withLock { $0.contains { $0.hasSuffix("member=NameLost") } } }

    /// Everything seen so far, in the bus's order.
    public var entries: [Entry] {
        var result: [Entry] = []
        for line in output.lines.withLock({ $0 }) {
            if line.first?.isWhitespace == false {
                result.append(Entry(header: line, body: ""))
            } else if !result.isEmpty {
                let words = line.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                result[result.count - 1].body += (result[result.count - 1].body.isEmpty ? "" : " ") + words
            }
        }
        return result
    }

    private final class Lines: Sendable {
        let lines = Mutex<[String]>([])
    }
}
