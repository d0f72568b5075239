import Foundation
import TestSupport
import XCTest

/// `mprisd run` gives its program's streams a `media.role` derived from the session, through
/// `PULSE_PROP_media.role` (issue 15): the mapping seen in the program's environment (no daemon
/// needed), and the role a real `paplay` stream carries on PulseAudio and on PipeWire — while a
/// program's own role and a user's own variable win.
final class RunRoleTests: StreamTestCase {
    private static let variable = "PULSE_PROP_media.role"

    /// The `PULSE_PROP_media.role` entry `mprisd run ARGUMENTS -- env` hands its program (never
    /// two), nil when there is none. No daemon runs: the program runs all the same, with its role.
    private func roleSeen(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> String? {
        let result = try await mprisd(["run"] + arguments + ["--", "/usr/bin/env"], environment: extra)
        XCTAssertEqual(result.status, 0, "the program ran: \(result.stderr)")
        let entries = result.stdout.split(separator: "\n").filter { $0.hasPrefix(Self.variable + "=") }
        XCTAssertLessThanOrEqual(entries.count, 1, "one entry at most: \(entries)")
        return entries.first.map { String($0.dropFirst(Self.variable.count + 1)) }
    }

    func testTheRoleFollowsTheSessionsCategoryAndModeWithoutADaemon() async throws {
        let table: [([String], String?)] = [
            (["--category", "playAndRecord", "--mode", "voiceChat"], "phone"),
            (["--category", "playAndRecord", "--mode", "videoChat"], "phone"),
            (["--category", "playAndRecord", "--mode", "voiceChat", "--mix"], nil),
            (["--category", "playAndRecord", "--mode", "gameChat"], "game"),
            (["--category", "playAndRecord"], nil),
            (["--category", "playAndRecord", "--mode", "voicePrompt"], "navigation"),
            (["--category", "playback", "--mode", "voicePrompt", "--mix", "--duck"], "navigation"),
            (["--category", "playback", "--mode", "moviePlayback"], "video"),
            (["--category", "playback", "--mode", "spokenAudio"], "music"),
            (["--category", "playback"], "music"),
            ([], "music"),
            (["--category", "playback", "--mode", "measurement"], nil),
            (["--category", "ambient"], "game"),
            (["--category", "soloAmbient"], "game"),
            (["--category", "soloAmbient", "--mode", "voiceChat"], "game"),
            (["--category", "record"], nil),
            (["--category", "audioProcessing"], nil),
        ]
        for (arguments, expected) in table {
            let seen = try await roleSeen(arguments)
            XCTAssertEqual(seen, expected, "mprisd run \(arguments.joined(separator: " "))")
        }
    }

    func testTheUsersOwnVariableWinsEvenEmpty() async throws {
        let call = ["--category", "playAndRecord", "--mode", "voiceChat"]
        let game = try await roleSeen(call, environment: [Self.variable: "game"])
        XCTAssertEqual(game, "game")
        let empty = try await roleSeen(call, environment: [Self.variable: ""])
        XCTAssertEqual(empty, "")
    }

    // MARK: Real streams

    func testACallsStreamCarriesThePhoneRoleOnPulseAudio() async throws { try await aCallsStreamCarriesThePhoneRole(.pulseAudio) }
    func testACallsStreamCarriesThePhoneRoleOnPipeWire() async throws { try await aCallsStreamCarriesThePhoneRole(.pipeWire) }

    /// `mprisd run --category playAndRecord --mode voiceChat -- paplay LONG`, with the daemon:
    /// paplay sets no role, so its stream shows `phone`.
    private func aCallsStreamCarriesThePhoneRole(_ kind: AudioServerKind) async throws {
        try await startPulse(kind)
        try await startStreamDaemon()
        let file = try track("call.wav", seconds: 60)
        _ = try run(["--category", "playAndRecord", "--mode", "voiceChat", "--name", "call", "--", "paplay", file],
                    environment: serverVariables)
        let stream = try await waitForSinkInput("paplay's stream") { $0.app == "paplay" }
        XCTAssertEqual(stream.role?.lowercased(), "phone", "\(stream)")
    }

    func testTheProgramsOwnRoleWinsOnPulseAudio() async throws { try await theProgramsOwnRoleWins(.pulseAudio) }
    func testTheProgramsOwnRoleWinsOnPipeWire() async throws { try await theProgramsOwnRoleWins(.pipeWire) }

    /// `mprisd run --category playback -- paplay --property=media.role=game LONG`: game, not music.
    private func theProgramsOwnRoleWins(_ kind: AudioServerKind) async throws {
        try await startPulse(kind)
        try await startStreamDaemon()
        let file = try track("game.wav", seconds: 60)
        _ = try run(["--category", "playback", "--name", "game", "--", "paplay", "--property=media.role=game", file],
                    environment: serverVariables)
        let stream = try await waitForSinkInput("paplay's stream") { $0.app == "paplay" }
        XCTAssertEqual(stream.role?.lowercased(), "game", "\(stream)")
    }

    func testTheUsersRoleWinsAndNoDaemonIsNeededOnPulseAudio() async throws { try await theUsersRoleWinsAndNoDaemonIsNeeded(.pulseAudio) }
    func testTheUsersRoleWinsAndNoDaemonIsNeededOnPipeWire() async throws { try await theUsersRoleWinsAndNoDaemonIsNeeded(.pipeWire) }

    /// Without a daemon the run still sets the role (a call → phone); with the user's own
    /// `PULSE_PROP_media.role=video`, a call's stream shows video.
    private func theUsersRoleWinsAndNoDaemonIsNeeded(_ kind: AudioServerKind) async throws {
        try await startPulse(kind)
        let call = try track("call.wav", seconds: 60)
        let first = try run(["--category", "playAndRecord", "--mode", "voiceChat", "--name", "call", "--", "paplay", call],
                            environment: serverVariables)
        let phone = try await waitForSinkInput("the call's stream without a daemon") { $0.app == "paplay" }
        XCTAssertEqual(phone.role?.lowercased(), "phone", "\(phone)")
        first.signal(SIGTERM)
        try await waitUntil("the first stream is gone", timeout: .seconds(15)) { try await self.sinkInputs().allSatisfy { $0.app != "paplay" } }

        var variables = serverVariables
        variables[Self.variable] = "video"
        _ = try run(["--category", "playAndRecord", "--mode", "voiceChat", "--name", "call", "--", "paplay", call],
                    environment: variables)
        let video = try await waitForSinkInput("the stream with the user's role") { $0.app == "paplay" }
        XCTAssertEqual(video.role?.lowercased(), "video", "\(video)")
    }
}
