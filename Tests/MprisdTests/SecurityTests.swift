import DBus
import Foundation
import Glibc
import TestSupport
import XCTest

/// State files are replaced atomically (only a rename ever lands on the final name), and nothing in
/// the configuration is executed.
final class SecurityTests: PlayerTestCase {
    func testSilentModeFileIsOnlyEverRenamedIntoPlace() async throws {
        let state = path("state") + "/mprisd"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let watch = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        XCTAssertGreaterThanOrEqual(watch, 0)
        defer { close(watch) }
        XCTAssertGreaterThanOrEqual(inotify_add_watch(watch, state, UInt32(IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_ATTRIB)), 0)
        let watcher = try connect()
        let daemon = try await startDaemon(watcher: watcher)
        var environment = daemonEnvironment
        environment["XDG_STATE_HOME"] = path("state")
        for round in 0..<10 {
            let result = try await runProgram(Products.path("mprisd"), ["silent", round % 2 == 0 ? "on" : "off"],
                                              environment: environment)
            XCTAssertEqual(result.status, 0, result.stderr)
            _ = try await watcher.call(destination: Self.policyName, path: try ObjectPath(Self.policyPath),
                                       interface: "org.mprisd.AudioPolicy1", member: "SetSilentMode", [.boolean(round % 2 == 0)])
        }
        // Every write-side event that names the final file (readers opening it are fine).
        var events: [UInt32] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let got = buffer.withUnsafeMutableBytes { read(watch, $0.baseAddress, $0.count) }
            guard got > 0 else { break }
            var offset = 0
            while offset < got {
                let (mask, length, name) = buffer.withUnsafeBytes { raw -> (UInt32, Int, String) in
                    let mask = raw.load(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(raw.load(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameBytes = raw[(offset + 16)..<(offset + 16 + length)].prefix { $0 != 0 }
                    return (mask, length, String(decoding: nameBytes, as: UTF8.self))
                }
                if name == "silent" { events.append(mask) }
                offset += 16 + length
            }
        }
        print("security: \(events.count) inotify events on the silent file")
        XCTAssertGreaterThanOrEqual(events.count, 10)
        for mask in events {
            XCTAssertEqual(mask & ~UInt32(IN_ISDIR), UInt32(IN_MOVED_TO), String(format: "event 0x%x on the final name", mask))
        }
        let text = try String(contentsOfFile: state + "/silent", encoding: .utf8)
        XCTAssertEqual(text.trimmingCharacters(in: .whitespacesAndNewlines), "off")
        XCTAssertTrue(daemon.isRunning)
    }

    func testNothingInTheConfigurationIsExecuted() async throws {
        let marker = path("pwned")
        let config = path("config") + "/mprisd"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try """
        output.a = $(touch${IFS}\(marker)-a)
        output.a.name = `touch \(marker)-b`
        output.b = hw:0;touch${IFS}\(marker)-c
        output.b.type = $(touch \(marker)-d)
        output.$(touch${IFS}\(marker)-e) = hw:0
        silent = `touch \(marker)-f`
        """.write(toFile: config + "/config", atomically: true, encoding: .utf8)
        let watcher = try connect()
        let daemon = try await startDaemon(watcher: watcher)
        var environment = daemonEnvironment
        environment["XDG_CONFIG_HOME"] = path("config")
        for arguments in [["route", "list"], ["status"], ["route", "use", "a"], ["route", "use", "auto"]] {
            _ = try await runProgram(Products.path("mprisd"), arguments, environment: environment)
        }
        let player = try play(["--device", "null", try track("t.wav", seconds: 0.3)])
        _ = await player.waitForExit()
        let made = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("pwned") }
        XCTAssertEqual(made, [], "the configuration ran a command")
        XCTAssertTrue(daemon.isRunning)
    }
}
