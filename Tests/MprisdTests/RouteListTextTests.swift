import Foundation
import TestSupport
import XCTest

/// `mprisd route list` prints names other people chose — a Bluetooth device's alias, an output
/// named in the configuration — through the table renderer that escapes control characters: no
/// escape sequence reaches the terminal and every output stays on its own line.
final class RouteListTextTests: PlayerTestCase {
    func testControlCharactersInNamesAreEscapedAndEachOutputKeepsItsLine() async throws {
        let system = try TestBus(.system)
        defer { system.stop() }
        let bluez = try await FakeBluez.start(on: system)
        defer { bluez.stop() }
        let control = try BluezMockControl(bus: system)
        let address = "11:22:33:44:55:66"
        let device = try await control.addDevice(address: address, alias: "Evil\u{1B}]0;pwned\u{07}\nHeadset")
        try await control.setUUIDs([BluezMockControl.a2dpSink], device: device)
        try await control.connect(address: address)

        try FileManager.default.createDirectory(atPath: path("config/mprisd"), withIntermediateDirectories: true)
        try "output.dac = null\noutput.dac.name = USB\u{1B}[2J DAC\n"
            .write(toFile: path("config/mprisd/config"), atomically: true, encoding: .utf8)

        var environment = bus.environment.merging(userDirectories) { _, mine in mine }
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = system.address
        let listed = try await runProgram(Products.path("mprisd"), ["route", "list"], environment: environment)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertFalse(listed.stdout.unicodeScalars.contains("\u{1B}"), listed.stdout)
        XCTAssertFalse(listed.stdout.unicodeScalars.contains("\u{07}"), listed.stdout)

        let lines = listed.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let headset = try XCTUnwrap(lines.first { $0.contains(device) }, listed.stdout)
        XCTAssertTrue(headset.contains(#"Evil\x1b]0;pwned\x07\x0aHeadset"#), listed.stdout)
        let dac = try XCTUnwrap(lines.first { $0.contains("dac") }, listed.stdout)
        XCTAssertTrue(dac.contains(#"USB\x1b[2J DAC"#), listed.stdout)
        XCTAssertFalse(lines.contains { $0.hasPrefix("Headset") }, "no name starts a line of its own: \(listed.stdout)")
    }
}
