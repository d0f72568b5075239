import AudioServer
import Foundation
import Synchronization
import TestSupport
import XCTest

/// An `AudioServerLink` under test with every change it reported and every line it logged.
final class LinkRecorder: Sendable {
    let link: AudioServerLink
    private let records = Records()

    private final class Records: Sendable {
        let state = Mutex<(changes: [InventoryChange], log: [String])>(([], []))
    }

    init(address: ServerAddress, ownViewHasNoDefaults: Bool = false, retryDelays: [Duration]? = nil) throws {
        let records = self.records
        link = AudioServerLink(address: address, ownViewHasNoDefaults: ownViewHasNoDefaults, retryDelays: retryDelays,
                               log: { line in records.state.withLock { $0.log.append(line) } })
        try link.start { change in records.state.withLock { $0.changes.append(change) } }
    }

    convenience init(socket: String, retryDelays: [Duration]? = nil) throws {
        try self.init(address: .socket(path: socket), retryDelays: retryDelays)
    }

    var changes: [InventoryChange] { records.state.withLock { $0.changes } }
    var logLines: [String] { records.state.withLock { $0.log } }

    /// How many changes of `kind` were reported.
    func count(_ matches: (InventoryChange.Kind) -> Bool) -> Int {
        changes.filter { matches($0.kind) }.count
    }

    /// Waits (generously) until the inventory satisfies `condition`; fails the test if it never does.
    @discardableResult
    func waitFor(_ what: String, timeout: Duration = .seconds(20), file: StaticString = #filePath, line: UInt = #line,
                 _ condition: @escaping (AudioInventory) -> Bool) async -> Bool {
        let link = self.link
        let held = await eventually(timeout: timeout) { condition(link.inventory) }
        if !held {
            let now = link.inventory
            XCTFail("never: \(what); inventory: \(now.streams.count) streams, \(now.devices.count) devices, "
                    + "server \(now.server?.name ?? "none"); log: \(logLines)", file: file, line: line)
        }
        return held
    }

    /// Waits until `condition` holds for the recorded changes.
    @discardableResult
    func waitForChanges(_ what: String, timeout: Duration = .seconds(20), file: StaticString = #filePath, line: UInt = #line,
                        _ condition: @escaping ([InventoryChange]) -> Bool) async -> Bool {
        let held = await eventually(timeout: timeout) { condition(self.changes) }
        if !held { XCTFail("never: \(what); changes: \(changes.map(\.kind))", file: file, line: line) }
        return held
    }

    func stop() { link.stop() }
}

extension AudioInventory {
    /// The streams whose `application.name` is `name`.
    func streams(named name: String) -> [AudioStream] {
        streams.values.filter { $0.applicationName == name }
    }
}

/// The pid of the only child of `pid` (the program `timeout` runs), from `/proc/PID/task/PID/children`.
func childPID(of pid: Int32) -> Int32? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8) else { return nil }
    return text.split(separator: " ").first.flatMap { Int32($0) }
}
