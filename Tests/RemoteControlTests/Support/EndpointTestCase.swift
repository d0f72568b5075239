import DBus
import Foundation
@testable import RemoteControl
import TestSupport
import XCTest

/// Each test: its own `dbus-daemon`, a player in this process, the real tools against that bus.
class EndpointTestCase: BusTestCase {
    static let name = "org.mpris.MediaPlayer2.rctest"

    func makePlayer(name: String = "rctest", commands: [RemoteCommand] = RemoteCommand.allCases) throws -> TestPlayer {
        try TestPlayer(connection: try connect(), name: name, commands: commands)
    }

    /// `playerctl -p rctest ARGS`; returns trimmed stdout and fails the test on a non-zero exit
    /// unless `allowFailure`.
    @discardableResult
    func playerctl(_ arguments: String..., player: String? = "rctest", allowFailure: Bool = false,
                   file: StaticString = #filePath, line: UInt = #line) async throws -> String {
        let result = try await tool("playerctl", (player.map { ["-p", $0] } ?? []) + arguments)
        if !allowFailure {
            XCTAssertEqual(result.status, 0, "playerctl \(arguments): \(result.stderr)", file: file, line: line)
        }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Asserts what `playerctl ARGS` prints.
    func expectPlayerctl(_ arguments: String..., player: String? = "rctest", prints expected: String,
                         file: StaticString = #filePath, line: UInt = #line) async throws {
        let result = try await tool("playerctl", (player.map { ["-p", $0] } ?? []) + arguments)
        XCTAssertEqual(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines), expected,
                       "playerctl \(arguments) (stderr: \(result.stderr))", file: file, line: line)
    }

    /// `dbus-send --print-reply` to the player's object.
    @discardableResult
    func dbusSend(_ member: String, _ arguments: String..., destination: String = EndpointTestCase.name,
                  interface: String = "org.mpris.MediaPlayer2.Player") async throws -> ProgramResult {
        try await tool("dbus-send", ["--session", "--print-reply", "--dest=\(destination)", "/org/mpris/MediaPlayer2",
                                     "\(interface).\(member)"] + arguments)
    }

    private var observer: Connection?

    /// A connection of the binding that only watches the bus.
    func observerConnection() throws -> Connection {
        if let observer { return observer }
        let connection = try connect()
        observer = connection
        return connection
    }

    /// The names on the bus (`ListNames` through a connection of the binding).
    func busNames() async throws -> [String] {
        try await observerConnection().listNames()
    }

    /// The names on the bus once it has handled everything `player`'s endpoint asked of it: the
    /// endpoint asks for or gives up its name synchronously, on its connection, one request at a
    /// time (the next once the bus answered the last). Once none is in flight, a round trip there
    /// makes "no name was requested" a fact rather than a hope.
    func busNamesAfterRequests(of player: TestPlayer, file: StaticString = #filePath,
                               line: UInt = #line) async throws -> [String] {
        let endpoint = player.endpoint
        let settled = await eventually { endpoint.isNameSettled }
        XCTAssertTrue(settled, "a name request or release is still in flight", file: file, line: line)
        try await endpoint.connection.roundTrip()
        return try await busNames()
    }

    /// Waits until `name` is (or is not) on the bus.
    func waitForName(_ name: String = EndpointTestCase.name, present: Bool,
                     timeout: Duration = .seconds(5)) async throws -> Bool {
        let observer = try observerConnection()
        return try await eventually(timeout: timeout) { try await observer.listNames().contains(name) == present }
    }

    /// A round trip to the player through `client`: every signal the player sent before it has
    /// been delivered to `client`'s handlers when this returns (one sender's messages stay in order).
    func sync(_ client: Connection, destination: String) async throws {
        _ = try await client.call(destination: destination, path: try ObjectPath("/org/mpris/MediaPlayer2"),
                                  interface: "org.freedesktop.DBus.Peer", member: "Ping")
    }

    /// Waits until the endpoint's own view of its name (set when the bus's reply is processed,
    /// a moment after the name shows on the bus) is `name`.
    func expectBusName(_ player: TestPlayer, _ name: String?, file: StaticString = #filePath,
                       line: UInt = #line) async {
        let endpoint = player.endpoint
        let ok = await eventually { endpoint.busName == name }
        XCTAssertTrue(ok, "busName is \(endpoint.busName ?? "nil"), expected \(name ?? "nil")", file: file, line: line)
    }

    /// Waits until `condition` holds (state another thread or process changes).
    func waitUntil(timeout: Duration = .seconds(5), _ condition: @Sendable () async throws -> Bool) async rethrows -> Bool {
        try await eventually(timeout: timeout, condition)
    }
}
