import DBus
import Foundation
import TestSupport

/// A real mpv with Debian's mpv-mpris script (`--ao=null`, so it plays in real time without a
/// sound card): the foreign MPRIS player of the fault tests, read through its MPRIS interface.
struct MPVProgram {
    static let executable = "/usr/bin/mpv"
    static let script = "/usr/lib/mpv-mpris/mpris.so"
    static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: executable) && FileManager.default.fileExists(atPath: script)
    }

    let program: BackgroundProgram
    let uniqueName: String

    /// Starts mpv looping `file` and waits for `org.mpris.MediaPlayer2.mpv`.
    static func start(bus: TestBus, file: String, watcher: Connection) async throws -> MPVProgram {
        let program = try BackgroundProgram(executable, ["--no-config", "--idle=yes", "--ao=null", "--vo=null",
                                                         "--no-terminal", "--script=\(script)", "--loop-file=inf", file],
                                            environment: TestBus.environment(session: bus, system: nil))
        var owner: String?
        _ = await eventually(timeout: .seconds(10)) {
            let reply = try? await watcher.call(destination: "org.freedesktop.DBus", path: try ObjectPath("/org/freedesktop/DBus"),
                                                interface: "org.freedesktop.DBus", member: "GetNameOwner",
                                                [.string("org.mpris.MediaPlayer2.mpv")])
            if case .string(let name)? = reply?.first { owner = name }
            return owner != nil
        }
        guard let owner else { throw TestSupportError("mpv took no MPRIS name: \(program.stderr)") }
        return MPVProgram(program: program, uniqueName: owner)
    }

    func property(_ name: String, on connection: Connection) async throws -> DBusValue {
        let reply = try await connection.call(destination: uniqueName, path: try ObjectPath("/org/mpris/MediaPlayer2"),
                                              interface: "org.freedesktop.DBus.Properties", member: "Get",
                                              [.string("org.mpris.MediaPlayer2.Player"), .string(name)], timeout: .seconds(5))
        guard case .variant(let value)? = reply.first else { throw TestSupportError("Get \(name): \(reply)") }
        return value
    }

    func volume(on connection: Connection) async throws -> Double {
        guard case .double(let volume) = try await property("Volume", on: connection) else { throw TestSupportError("Volume") }
        return volume
    }

    func status(on connection: Connection) async throws -> String {
        guard case .string(let status) = try await property("PlaybackStatus", on: connection) else {
            throw TestSupportError("PlaybackStatus")
        }
        return status
    }
}
