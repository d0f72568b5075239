import DBus
import Foundation

/// A real MPRIS player the test drives as the user would, through the player's interface on a
/// connection of the test's own: mpv, a browser. One implementation of finding the player's name
/// and of playing the user, for every such player.
public protocol MPRISTestPlayer: Sendable {
    /// The test's own connection to the bus, for playing the user.
    var control: Connection { get }
    /// The player's unique name on the bus.
    var uniqueName: String { get }
    /// The MPRIS name it took.
    var busName: String { get }
}

public enum MPRISTestPlayers {
    static let interface = "org.mpris.MediaPlayer2.Player"
    static let path: ObjectPath = (try? ObjectPath("/org/mpris/MediaPlayer2")) ?? .root

    /// Waits until process `pid` owns an `org.mpris.MediaPlayer2.*` name on `bus`; its unique
    /// name and that name, or nil if `isRunning` turns false or `timeout` passes.
    static func waitForName(ofProcess pid: Int32, on bus: TestBus, control: Connection, timeout: Duration,
                            isRunning: () -> Bool) async throws -> (unique: String, busName: String)? {
        let deadline = ContinuousClock.now + timeout
        while isRunning(), ContinuousClock.now < deadline {
            for unique in try await bus.connections(ofProcess: pid) {
                if let name = try await mprisName(ownedBy: unique, on: control) { return (unique, name) }
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    private static func mprisName(ownedBy unique: String, on connection: Connection) async throws -> String? {
        let names = try await connection.call(destination: "org.freedesktop.DBus", path: ObjectPath("/org/freedesktop/DBus"),
                                              interface: "org.freedesktop.DBus", member: "ListNames")
        guard case .array(_, let values)? = names.first else { return nil }
        for case .string(let name) in values where name.hasPrefix("org.mpris.MediaPlayer2.") {
            let owner = try? await connection.call(destination: "org.freedesktop.DBus",
                                                   path: ObjectPath("/org/freedesktop/DBus"),
                                                   interface: "org.freedesktop.DBus", member: "GetNameOwner",
                                                   [.string(name)])
            if case .string(unique)? = owner?.first { return name }
        }
        return nil
    }
}

extension MPRISTestPlayer {
    public func play() async throws { try await call("Play") }
    public func pause() async throws { try await call("Pause") }

    /// `OpenUri`: the player replaces what it plays with `uri` (a new track, new `Metadata`).
    public func openURI(_ uri: String) async throws {
        _ = try await control.call(destination: uniqueName, path: MPRISTestPlayers.path, interface: MPRISTestPlayers.interface,
                                   member: "OpenUri", [.string(uri)], timeout: .seconds(5))
    }

    public func setVolume(_ volume: Double) async throws {
        _ = try await control.call(destination: uniqueName, path: MPRISTestPlayers.path,
                                   interface: "org.freedesktop.DBus.Properties", member: "Set",
                                   [.string(MPRISTestPlayers.interface), .string("Volume"), .variant(.double(volume))],
                                   timeout: .seconds(5))
    }

    /// `PlaybackStatus`: Playing, Paused or Stopped.
    public func playbackStatus() async throws -> String {
        guard case .string(let status) = try await property("PlaybackStatus") else {
            throw TestSupportError("PlaybackStatus of \(busName) is not a string")
        }
        return status
    }

    public func volume() async throws -> Double {
        guard case .double(let volume) = try await property("Volume") else {
            throw TestSupportError("Volume of \(busName) is not a double")
        }
        return volume
    }

    /// Waits until `PlaybackStatus` is `status`; false after `timeout`.
    public func waitForStatus(_ status: String, timeout: Duration = .seconds(5)) async -> Bool {
        await eventually(timeout: timeout) { (try? await playbackStatus()) == status }
    }

    /// A property of its `org.mpris.MediaPlayer2.Player`, unwrapped from its variant; asked on
    /// `connection` (by default the test's own, `control`).
    public func property(_ name: String, through connection: Connection? = nil) async throws -> DBusValue {
        let reply = try await (connection ?? control).call(destination: uniqueName, path: MPRISTestPlayers.path,
                                                           interface: "org.freedesktop.DBus.Properties", member: "Get",
                                                           [.string(MPRISTestPlayers.interface), .string(name)],
                                                           timeout: .seconds(5))
        guard case .variant(let value)? = reply.first else {
            throw TestSupportError("Get \(name) of \(busName) answered \(reply)")
        }
        return value
    }

    private func call(_ member: String) async throws {
        _ = try await control.call(destination: uniqueName, path: MPRISTestPlayers.path, interface: MPRISTestPlayers.interface,
                                   member: member, timeout: .seconds(5))
    }
}
