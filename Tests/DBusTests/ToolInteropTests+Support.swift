import DBus
import Foundation
import Synchronization
import TestSupport
import XCTest

// Running the tools: complete output of short-lived ones, and a dbus-monitor in the background.

typealias ToolResult = ProgramResult

extension Interop {
    /// Runs a program to completion (TestSupport's `runProgram`).
    static func runTool(_ path: String, _ arguments: [String], environment: [String: String]?,
                        timeout: Duration = .seconds(20)) async throws -> ToolResult {
        try await runProgram(path, arguments, environment: environment, timeout: timeout)
    }
}

/// Output of a background program, appended as it arrives.
final class InteropOutputBuffer: Sendable {
    private let data = Mutex(Data())
    func append(_ chunk: Data) { data.withLock { $0.append(chunk) } }
    var text: String { data.withLock { String(decoding: $0, as: UTF8.self) } }
}

/// A `dbus-monitor` process on the test bus, started by the test and ended by it (by its pid).
/// Its output is parsed into messages: a header line and the indented body.
final class InteropMonitor {
    struct Entry: Equatable, CustomStringConvertible {
        var header: String
        /// The body with every run of whitespace collapsed to one space.
        var body: String
        var member: String? {
            header.split(separator: " ").first { $0.hasPrefix("member=") }.map { String($0.dropFirst(7)) }
        }
        var description: String { "\(member ?? header): \(body)" }
    }

    private let process: BackgroundProcess
    private let buffer = InteropOutputBuffer()

    init(address: String, rules: [String]) throws {
        let buffer = self.buffer
        process = try BackgroundProcess(name: "dbus-monitor", "/usr/bin/dbus-monitor", ["--address", address] + rules,
                                        onLine: { buffer.append(Data(($0 + "\n").utf8)) })
    }

    deinit { stop() }

    /// Ends the monitor (SIGKILL, reaped).
    func stop() {
        process.stop()
    }

    var entries: [Entry] {
        var result: [Entry] = []
        for line in buffer.text.split(separator: "\n") {
            if line.first?.isWhitespace == false {
                result.append(Entry(header: String(line), body: ""))
            } else if !result.isEmpty {
                let words = line.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                result[result.count - 1].body += (result[result.count - 1].body.isEmpty ? "" : " ") + words
            }
        }
        return result
    }

    /// Entries after the `Sentinel(mark)` signal `after` (or from the start) up to `Sentinel(upTo)`;
    /// nil until that sentinel has been seen.
    func entries(after: UInt32?, upTo: UInt32) -> [Entry]? {
        let all = entries
        func index(_ mark: UInt32) -> Int? {
            all.firstIndex { $0.member == "Sentinel" && $0.body == "uint32 \(mark)" }
        }
        guard let end = index(upTo) else { return nil }
        let start = after.flatMap(index).map { $0 + 1 } ?? 0
        return start <= end ? all[start..<end].filter { $0.member != "Sentinel" } : nil
    }

    /// Emits `Sentinel(mark)` from `object` until the monitor shows it (the first one also tells
    /// that the monitor is listening); returns the entries since the sentinel `after`.
    func sync(_ object: ExportedObject, after: UInt32?, mark: UInt32,
              file: StaticString = #filePath, line: UInt = #line) async throws -> [Entry] {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            try object.emit(Interop.iface, "Sentinel", [.uint32(mark)])
            var found: [Entry]?
            _ = await eventually(timeout: .milliseconds(100)) {
                found = entries(after: after, upTo: mark)
                return found != nil
            }
            if let found { return found }
        }
        XCTFail("dbus-monitor never showed Sentinel(\(mark)):\n\(buffer.text)", file: file, line: line)
        return []
    }
}
