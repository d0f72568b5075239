import AudioPolicyClient
import DBus
import Foundation
import PolicyTestSupport
import SessionCore
import TestSupport
import XCTest

/// The daemon's session API driven by `RemoteSession` clients on their own connections.
final class PolicyServiceTests: PolicyTestCase {
    private let began = SessionEvent.interruption(.began(reason: .default))
    private let endedResume = SessionEvent.interruption(.ended(options: .shouldResume))
    private let endedPlain = SessionEvent.interruption(.ended(options: []))

    func testNonMixableActivationInterruptsAndNotifyOthersDecidesResumption() async throws {
        let daemon = try startDaemon()
        let (first, firstEvents) = try playbackSession("music")
        let (second, _) = try playbackSession("podcast")

        XCTAssertEqual(try first.activate(), .active)
        XCTAssertEqual(try second.activate(), .active)
        try await firstEvents.wait(for: began)
        XCTAssertFalse(first.isActive, "an interrupted session is inactive")

        try second.deactivate(notifyOthers: true)
        try await firstEvents.wait(for: endedResume)

        try first.activate()
        try second.activate()
        try await firstEvents.wait(for: began, count: 2)
        try second.deactivate()
        try await firstEvents.wait(for: endedPlain)
        let interruptions = firstEvents.elements.filter { if case .interruption = $0 { true } else { false } }
        XCTAssertEqual(interruptions, [began, endedResume, began, endedPlain])
        try await daemon.log.wait(forLine: "(music, \(first.client.connection.uniqueName)) interruption began (default)")
        try await daemon.log.wait(forLine: "(podcast, \(second.client.connection.uniqueName)) deactivated notifying others")
    }

    /// Sessions are numbered 1, 2, 3, … in order of registration, never reused, even when the
    /// engine reuses a slot (its own ids then jump to 2^32 + slot): paths, the log and the status
    /// show the small numbers, and the log names an interrupter by its label.
    func testSessionsAreNumberedInOrderAndNeverReused() async throws {
        let daemon = try startDaemon()
        let (first, _) = try playbackSession("first")
        XCTAssertEqual(first.path?.rawValue, AudioPolicyNames.objectPath.rawValue + "/session/1")
        first.unregister()
        try await daemon.log.wait(forLine: "session 1 (first, \(first.client.connection.uniqueName)) removed")
        let (music, _) = try playbackSession("music")
        let (call, _) = try playbackSession("call")
        XCTAssertEqual(music.path?.rawValue, AudioPolicyNames.objectPath.rawValue + "/session/2")
        XCTAssertEqual(call.path?.rawValue, AudioPolicyNames.objectPath.rawValue + "/session/3")
        XCTAssertEqual(try status().sessions.map(\.id), [2, 3])
        try music.activate()
        try call.activate()
        let musicOwner = music.client.connection.uniqueName
        let callOwner = call.client.connection.uniqueName
        try await daemon.log.wait(forLine: "session 2 (music, \(musicOwner)) interruption began (default) by session 3 (call, \(callOwner))")
    }

    func testTheSecondaryAudioHintReachesMixingSessionsOnly() async throws {
        _ = try startDaemon()
        let game = try makeClient().register(SessionConfiguration(.ambient), name: "game")
        let gameEvents = record(game)
        let (idle, idleEvents) = try playbackSession("idle")
        let (music, _) = try playbackSession("music")
        try game.activate()
        try music.activate()
        try await gameEvents.wait(for: "the hint to begin") { $0.contains(.secondaryAudioHint(.begin)) ? true : nil }
        try music.deactivate()
        try await gameEvents.wait(for: "the hint to end") { $0.contains(.secondaryAudioHint(.end)) ? true : nil }
        XCTAssertFalse(idleEvents.elements.contains { if case .secondaryAudioHint = $0 { true } else { false } },
                       "a non-mixable session is not sent the hint: \(idleEvents.elements)")
        _ = idle
    }

    func testDuckOthersDucksTheOtherSessionForAsLongAsItIsActive() async throws {
        let daemon = try startDaemon()
        let (music, musicEvents) = try playbackSession("music")
        let (navigation, navigationEvents) = try playbackSession("navigation", options: .duckOthers)
        try music.activate()
        try navigation.activate()
        try await musicEvents.wait(for: .ducking(.began))
        XCTAssertEqual(try status().sessions.first { $0.name == "music" }?.ducked, true)

        try navigation.deactivate()
        try await musicEvents.wait(for: .ducking(.ended))
        XCTAssertEqual(try status().sessions.first { $0.name == "music" }?.ducked, false)
        XCTAssertTrue(music.isActive, "ducking does not interrupt")
        XCTAssertFalse(navigationEvents.elements.contains { if case .ducking = $0 { true } else { false } },
                       "the ducking session itself is not ducked")
        try await daemon.log.wait(forLine: "(music, \(music.client.connection.uniqueName)) ducked")
    }

    func testOnlyTheOwnerMayUseItsSession() async throws {
        let daemon = try startDaemon()
        let (music, _) = try playbackSession("music")
        let path = try XCTUnwrap(music.path)
        let stranger = try connect()
        for member in ["Activate", "Deactivate"] {
            XCTAssertThrowsError(try stranger.callAndWait(.methodCall(
                destination: AudioPolicyNames.busName, path: path, interface: AudioPolicyNames.sessionInterface,
                member: member, body: [.dictionary(key: .string, value: .variant, [])]), timeout: .seconds(5))) {
                XCTAssertEqual(($0 as? DBusError)?.name, DBusError.Name.accessDenied)
            }
        }
        // A real tool, too; properties stay readable by anyone.
        let denied = try await busctl([path.rawValue, AudioPolicyNames.sessionInterface, "Activate", "a{sv}", "0"])
        XCTAssertNotEqual(denied.status, 0)
        XCTAssertTrue(denied.stderr.contains("Access denied"), denied.stderr)
        let owner = try await tool("busctl", ["--user", "get-property", AudioPolicyNames.busName, path.rawValue,
                                              AudioPolicyNames.sessionInterface, "Owner"])
        XCTAssertEqual(owner.stdout.trimmingCharacters(in: .whitespacesAndNewlines),
                       "s \"\(music.client.connection.uniqueName)\"")

        let row = try XCTUnwrap(try status().sessions.first { $0.name == "music" })
        XCTAssertFalse(row.active, "the stranger's Activate changed nothing")
        try await daemon.log.wait(forLine: "Activate by \(stranger.uniqueName) denied")
    }

    func testAClientThatLeavesTheBusStopsDuckingAtOnce() async throws {
        _ = try startDaemon()
        let (music, musicEvents) = try playbackSession("music")
        let (navigation, _) = try playbackSession("navigation", options: .duckOthers)
        try music.activate()
        try navigation.activate()
        try await musicEvents.wait(for: .ducking(.began))

        let clock = ContinuousClock()
        let start = clock.now
        navigation.client.connection.close()
        try await musicEvents.wait(for: .ducking(.ended), timeout: .seconds(1))
        XCTAssertLessThan(clock.now - start, .seconds(1))
        let names = try status().sessions.map(\.name)
        XCTAssertEqual(names, ["music"], "the vanished owner's session is gone")
    }

    func testSignalsReachOnlyTheOwner() async throws {
        _ = try startDaemon()
        let onlooker = try connect()
        let seen = EventRecord<Message>()
        let subscribed = try await onlooker.subscribe(MatchRule()) { seen.append($0) }
        defer { subscribed.cancel() }
        let (music, musicEvents) = try playbackSession("music")
        let (game, _) = try playbackSession("game")
        try music.activate()
        try game.activate()
        try await musicEvents.wait(for: began)
        try game.deactivate(notifyOthers: true)
        try await musicEvents.wait(for: endedResume)

        // A reply from the daemon comes after every signal it sent before: if the bus had routed
        // one of them to the onlooker, it would be recorded by now.
        _ = try onlooker.callAndWait(.methodCall(destination: AudioPolicyNames.busName,
                                                 path: AudioPolicyNames.objectPath,
                                                 interface: AudioPolicyNames.interface, member: "GetStatus", body: []))
        let sessionSignals = seen.elements.filter { $0.interface == AudioPolicyNames.sessionInterface }
        XCTAssertEqual(sessionSignals.map { $0.member ?? "" }, [])
        let broadcasts = seen.elements.filter { $0.member == "PropertiesChanged" && $0.path == music.path }
        XCTAssertFalse(broadcasts.isEmpty, "the onlooker's match works: it sees the public PropertiesChanged")
    }

    func testStatusDocumentListsTheSessions() async throws {
        _ = try startDaemon(statusExtras: { status in
            status.players.append(PolicyStatus.Player(busName: "org.mpris.MediaPlayer2.mpv", owner: ":1.99",
                                                      status: "Paused", session: 99, pausedByPolicy: true,
                                                      ducked: false))
        })
        let (music, _) = try playbackSession("music", options: .mixWithOthers)
        let voip = try makeClient().register(SessionConfiguration(.playAndRecord, mode: .voiceChat), name: "sleep")
        try music.activate()

        let document = try status()
        XCTAssertEqual(document.version, 1)
        XCTAssertEqual(document.sessions.map(\.name), ["music", "sleep"])
        let row = try XCTUnwrap(document.sessions.first)
        XCTAssertEqual(row.owner, music.client.connection.uniqueName)
        XCTAssertEqual(row.category, "playback")
        XCTAssertEqual(row.options, ["mixWithOthers"])
        XCTAssertTrue(row.active)
        XCTAssertEqual(document.sessions.last?.mode, "voiceChat")
        XCTAssertEqual(document.sessions.last?.id, voip.path.map(RemoteSessionNumber.of))
        XCTAssertEqual(document.players.map(\.busName), ["org.mpris.MediaPlayer2.mpv"])
        XCTAssertEqual(document.route.available.map(\.id), ["speaker"])

        // The JSON has sorted keys and leaves out the automatic route override.
        let raw = try await tool("gdbus", ["call", "--session", "--dest", AudioPolicyNames.busName, "--object-path",
                                           AudioPolicyNames.objectPath.rawValue, "--method",
                                           AudioPolicyNames.interface + ".GetStatus"])
        XCTAssertEqual(raw.status, 0, raw.stderr)
        XCTAssertTrue(raw.stdout.contains(#""locked":false,"outputVolume":0.5,"players""#), raw.stdout)
        XCTAssertFalse(raw.stdout.contains("override"), raw.stdout)
    }

    func testDaemonErrorsArriveAsSessionErrors() async throws {
        _ = try startDaemon()
        let (music, _) = try playbackSession("music")
        XCTAssertThrowsError(try music.setIORunning(true)) {
            XCTAssertEqual($0 as? SessionError, .sessionNotActive)
        }
        // Refused by the client before sending, exactly like the engine.
        XCTAssertThrowsError(try music.setCategory(.soloAmbient, options: .duckOthers)) {
            XCTAssertEqual($0 as? SessionError, .badParam(.optionNotAllowed(option: .duckOthers, category: .soloAmbient)))
        }
        // And by the daemon for anyone who does not check.
        let refused = try await busctl([AudioPolicyNames.objectPath.rawValue, AudioPolicyNames.interface, "Register",
                                        "a{sv}", "2", "category", "s", "soloAmbient", "options", "as", "1", "duckOthers"])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("does not fit category soloAmbient"), refused.stderr)
        let named = try await tool("gdbus", ["call", "--session", "--dest", AudioPolicyNames.busName, "--object-path",
                                             AudioPolicyNames.objectPath.rawValue, "--method", AudioPolicyNames.interface + ".Register",
                                             "{'category': <'soloAmbient'>, 'options': <['duckOthers']>}"])
        XCTAssertTrue(named.stderr.contains("org.mprisd.AudioPolicy1.Error.BadParam"), named.stderr)
    }
}

/// The daemon's session number in a session path.
enum RemoteSessionNumber {
    static func of(_ path: ObjectPath) -> UInt64 { path.elements.last.flatMap { UInt64($0) } ?? 0 }
}
