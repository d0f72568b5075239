import DBus
import Foundation
import Synchronization
import TestSupport
import XCTest

/// Security: a foreign MPRIS player is someone else's program, and the daemon may only ever pause
/// it, resume what it paused and set its volume (issue 7). A recording player — every method and
/// property write it receives is written down — goes through a storm of calls, prompts and games;
/// the calls it got must be Pause, Play and Volume writes, nothing else.
final class ForeignPlayerCallSetTests: DaemonTestCase {
    /// What the fake player received.
    private final class Received: Sendable {
        let methods = Mutex<[String]>([])
        let writes = Mutex<[String]>([])
        let status = Mutex("Playing")
        let volume = Mutex(0.8)
    }

    private func exportRecordingPlayer(on connection: Connection, _ received: Received) throws -> ExportedObject {
        let player = "org.mpris.MediaPlayer2.Player"
        func recording(_ name: String, _ effect: @escaping @Sendable () -> Void = {}) -> Method {
            .immediate(name) { _ in
                received.methods.withLock { $0.append(name) }
                effect()
                return []
            }
        }
        func writable(_ name: String, _ type: DBusType, _ value: DBusValue) -> Property {
            Property(name, type, get: { value }, set: { _ in received.writes.withLock { $0.append(name) } })
        }
        let object = try connection.export(try ObjectPath("/org/mpris/MediaPlayer2"), interfaces: [
            Interface("org.mpris.MediaPlayer2", methods: [recording("Raise"), recording("Quit")], properties: [
                Property("CanQuit", .boolean, get: { .boolean(true) }),
                Property("CanRaise", .boolean, get: { .boolean(true) }),
                Property("HasTrackList", .boolean, get: { .boolean(false) }),
                Property("Identity", .string, get: { .string("recorder") }),
                Property("SupportedUriSchemes", .array(.string), get: { .array(element: .string, []) }),
                Property("SupportedMimeTypes", .array(.string), get: { .array(element: .string, []) }),
            ]),
            Interface(player, methods: [
                recording("Next"), recording("Previous"), recording("Stop"), recording("OpenUri"),
                recording("Pause") { received.status.withLock { $0 = "Paused" } },
                recording("Play") { received.status.withLock { $0 = "Playing" } },
                recording("PlayPause"),
                .immediate("Seek", inputs: [Argument("offset", .int64)]) { _ in
                    received.methods.withLock { $0.append("Seek") }
                    return []
                },
                .immediate("SetPosition", inputs: [Argument("track", .objectPath), Argument("position", .int64)]) { _ in
                    received.methods.withLock { $0.append("SetPosition") }
                    return []
                },
            ], properties: [
                Property("PlaybackStatus", .string, get: { .string(received.status.withLock { $0 }) }),
                writable("LoopStatus", .string, .string("None")),
                writable("Rate", .double, .double(1)),
                writable("Shuffle", .boolean, .boolean(false)),
                Property("Volume", .double, get: { .double(received.volume.withLock { $0 }) }, set: { value in
                    received.writes.withLock { $0.append("Volume") }
                    if case .double(let volume) = value { received.volume.withLock { $0 = volume } }
                }),
                Property("Position", .int64, changeSignal: .none, get: { .int64(0) }),
                Property("MinimumRate", .double, get: { .double(1) }),
                Property("MaximumRate", .double, get: { .double(1) }),
                Property("CanGoNext", .boolean, get: { .boolean(true) }),
                Property("CanGoPrevious", .boolean, get: { .boolean(true) }),
                Property("CanPlay", .boolean, get: { .boolean(true) }),
                Property("CanPause", .boolean, get: { .boolean(true) }),
                Property("CanSeek", .boolean, get: { .boolean(true) }),
                Property("CanControl", .boolean, get: { .boolean(true) }),
                Property("Metadata", .dictionary(key: .string, value: .variant), get: { .dictionary(key: .string, value: .variant, []) }),
            ]),
        ])
        return object
    }

    func testAForeignPlayerIsOnlyEverPausedResumedAndVolumeSet() async throws {
        try await startDaemon()
        let connection = try connect()
        let received = Received()
        let object = try exportRecordingPlayer(on: connection, received)
        _ = try connection.requestNameAndWait("org.mpris.MediaPlayer2.recorder")
        try await waitForStatus("the daemon tracks the recorder") { status in
            status.players.contains { $0.busName == "org.mpris.MediaPlayer2.recorder" && $0.status == "Playing" }
        }
        // A storm of what the policy reacts to: calls with and without notify-others, prompts that
        // duck, a game that mixes and one that does not, a music app of ours starting and stopping.
        let storms: [[String]] = [
            ["--category", "playAndRecord", "--mode", "voiceChat", "--notify-others", "--", "sleep", "0.3"],
            ["--category", "playback", "--mix", "--duck", "--", "sleep", "0.3"],
            ["--category", "playAndRecord", "--mode", "voiceChat", "--", "sleep", "0.3"],
            ["--category", "ambient", "--", "sleep", "0.2"],
            ["--category", "soloAmbient", "--", "sleep", "0.2"],
            ["--category", "playback", "--interrupt-spoken", "--", "sleep", "0.2"],
        ]
        for arguments in storms {
            // The player "plays" again before each round, announcing it as a real one would.
            received.status.withLock { $0 = "Playing" }
            object.propertiesChanged("org.mpris.MediaPlayer2.Player", ["PlaybackStatus"])
            try await waitForStatus("the daemon sees the recorder playing") { status in
                status.players.contains { $0.busName == "org.mpris.MediaPlayer2.recorder" && $0.status == "Playing" }
            }
            let program = try run(arguments)
            _ = await program.waitForExit()
        }
        let reached = await eventually {
            received.methods.withLock { $0 }.contains("Pause") && received.writes.withLock { $0 }.contains("Volume")
        }
        XCTAssertTrue(reached, "the storm reached the player")
        let methods = Set(received.methods.withLock { $0 })
        let writes = Set(received.writes.withLock { $0 })
        XCTAssertTrue(methods.isSubset(of: ["Pause", "Play"]), "only Pause and Play: \(methods)")
        XCTAssertTrue(writes.isSubset(of: ["Volume"]), "only Volume is written: \(writes)")
        XCTAssertTrue(methods.contains("Pause"), "the storm did reach the player: \(daemon?.stderr ?? "")")
        XCTAssertTrue(writes.contains("Volume"), "the prompt ducked it: \(daemon?.stderr ?? "")")
    }
}
