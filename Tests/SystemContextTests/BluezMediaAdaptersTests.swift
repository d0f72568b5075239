import DBus
import Foundation
import SystemContext
import TestSupport
import XCTest

/// The adapters a player can be registered on, followed against the dbusmock bluetoothd: those
/// with `org.bluez.Media1` only, gone when they go or bluetoothd goes, back when they come back.
final class BluezMediaAdaptersTests: XCTestCase {
    func testAdaptersWithMediaAreFollowedThroughReplugAndRestart() async throws {
        let system = try TestBus(.system)
        defer { system.stop() }
        var bluez = try await FakeBluez.start(on: system)
        defer { bluez.stop() }
        let connection = try Connection(address: system.address)
        defer { connection.close() }
        let reports = EventRecord<[String]>()
        let adapters = BluezMediaAdapters(connection: connection) { reports.append($0.map(\.rawValue)) }
        defer { adapters.stop() }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            adapters.start { continuation.resume(with: $0) }
        }
        XCTAssertEqual(adapters.adapters.map(\.rawValue), ["/org/bluez/hci0"])

        // An adapter without Media1 (bluetoothd without its media profiles) is no place to register:
        // it never shows up in the reports that follow.
        let added = try await runProgram("/usr/bin/busctl", ["--address=\(system.address)", "call", "org.bluez", "/",
                                                            "org.bluez.Mock", "AddAdapter", "ss", "hci1", "other"],
                                         timeout: .seconds(10))
        XCTAssertEqual(added.status, 0, added.stderr)

        let before = reports.elements.count
        try await bluez.replugAdapter()
        _ = try await reports.wait(for: "hci0 gone, then back") { all -> Bool? in
            let after = Array(all.dropFirst(before))
            guard let gone = after.firstIndex(where: { !$0.contains("/org/bluez/hci0") }),
                  after[gone...].contains(where: { $0.contains("/org/bluez/hci0") }) else { return nil }
            return true
        }

        // Every report since hci1 appeared came after it (the mock's signals are in order).
        XCTAssertFalse(reports.elements.contains { $0.contains("/org/bluez/hci1") }, "\(reports.elements)")
        XCTAssertEqual(adapters.adapters.map(\.rawValue), ["/org/bluez/hci0"])

        bluez.stop()
        _ = try await reports.wait(for: "no adapter once bluetoothd is gone") { all -> Bool? in all.last == [] ? true : nil }
        bluez = try await FakeBluez.start(on: system)
        _ = try await reports.wait(for: "hci0 again from the new bluetoothd") { all -> Bool? in
            all.last == ["/org/bluez/hci0"] ? true : nil
        }
    }
}
