import Foundation
import TestSupport

/// A real `dbus-monitor` on the test bus (started by the test, ended by it by its pid), its output
/// parsed into messages: the header line, and the indented body with whitespace collapsed.
final class BusMonitor: Sendable {
    struct Entry: Sendable {
        var header: String
        var body: String

        /// A `key=value` field of the header (`sender`, `member`…).
        func field(_ key: String) -> String? {
            header.split(separator: " ").lazy
                .first { $0.hasPrefix(key + "=") }
                .map { String($0.dropFirst(key.count + 1).trimmingCharacters(in: CharacterSet(charactersIn: ";"))) }
        }

        /// The string arguments of the body, in order (the values of `string "…"`).
        var strings: [String] {
            body.components(separatedBy: "string \"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        }
    }

    private let process: BackgroundProcess
    private let output = ValueBox<[String]>([])

    /// Starts the monitor with dbus-monitor match `rules`.
    init(address: String, rules: [String]) throws {
        let output = self.output
        process = try BackgroundProcess(name: "dbus-monitor", "/usr/bin/dbus-monitor", ["--address", address] + rules,
                                        onLine: { line in output.value.withLock { $0.append(line) } })
    }

    deinit { process.stop() }

    /// Ends the monitor (SIGKILL, reaped).
    func stop() { process.stop() }

    /// Whether the monitor has become one: dbus-monitor prints the loss of its own unique name
    /// when the bus turns it into a monitor.
    var isListening: Bool { output.value.withLock { $0.contains { $0.hasSuffix("member=NameLost") } } }

    /// Everything seen so far, in the bus's order.
    var entries: [Entry] {
        var result: [Entry] = []
        for line in output.value.withLock({ $0 }) {
            if line.first?.isWhitespace == false {
                result.append(Entry(header: line, body: ""))
            } else if !result.isEmpty {
                let words = line.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                result[result.count - 1].body += (result[result.count - 1].body.isEmpty ? "" : " ") + words
            }
        }
        return result
    }
}
