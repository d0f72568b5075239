import XCTest
@testable import SessionCore

/// How the policy daemon drives one engine for many processes: effects are addressed by
/// `SessionID`, a foreign MPRIS player is a playback session active while it plays, and a
/// `PlaybackController` per player turns effects into `Pause`/`Play`/`Volume` calls (design.md).
final class DaemonDrivingTests: XCTestCase {
    /// A minimal daemon: the engine, a controller per foreign player, the MPRIS calls it made.
    struct Daemon {
        var engine = PolicyEngine()
        var players: [SessionID: PlaybackController] = [:]
        var calls: [(SessionID, PlaybackAction)] = []

        mutating func playerAppeared() -> SessionID {
            let id = engine.register(recordPermission: .denied)
            _ = try? engine.configure(id, AppProfile.mediaPlayer().configuration)
            players[id] = PlaybackController(rules: AppProfile.mediaPlayer().rules)
            return id
        }

        /// PlaybackStatus became Playing: the player is an active session.
        mutating func playerStartedPlaying(_ id: SessionID) {
            _ = players[id]?.play()
            forward(engine.activate(id).effects)
        }

        /// Effects for foreign players become MPRIS calls; others go out as D-Bus signals.
        mutating func forward(_ effects: [PolicyEffect]) {
            for effect in effects {
                for (id, _) in players.sorted(by: { $0.key < $1.key }) where effect.target.includes(id) {
                    guard var controller = players[id] else { continue }
                    for action in controller.handle(effect.event) {
                        switch action {
                        case .activateSession: forward(engine.activate(id).effects)
                        case .startOutput, .pauseOutput, .setDucked: calls.append((id, action))
                        default: break
                        }
                    }
                    players[id] = controller
                }
            }
        }

        mutating func takeCalls() -> [PlaybackAction] {
            defer { calls = [] }
            return calls.map(\.1)
        }
    }

    func testForeignPlayerIsPausedForACallDuckedForAPromptAndResumed() throws {
        var daemon = Daemon()
        daemon.forward(daemon.engine.connect([headphones]))
        let mpv = daemon.playerAppeared()
        daemon.playerStartedPlaying(mpv)

        // A VoIP client of the daemon (another process) answers a call.
        let voip = try daemon.engine.register(SessionConfiguration(.playAndRecord, mode: .voiceChat),
                                              recordPermission: .granted)
        daemon.forward(daemon.engine.activate(voip).effects)
        XCTAssertEqual(daemon.takeCalls(), [.pauseOutput], "Pause sent to mpv")
        daemon.forward(daemon.engine.deactivate(voip, options: .notifyOthersOnDeactivation).effects)
        XCTAssertEqual(daemon.takeCalls(), [.startOutput], "Play sent: the daemon paused it, the call notified")

        // A navigation prompt ducks it and restores it.
        let nav = try daemon.engine.register(AppProfile.navigation.configuration)
        daemon.forward(daemon.engine.activate(nav).effects)
        XCTAssertEqual(daemon.takeCalls(), [.setDucked(true)])
        daemon.forward(daemon.engine.remove(nav))  // the prompt's process exits
        XCTAssertEqual(daemon.takeCalls(), [.setDucked(false)], "undone at once when the owner vanishes")

        // Headphones out: pause, and never resume by itself (G-HEADPHONES-OUT).
        daemon.forward(daemon.engine.disconnect([headphones.id]))
        XCTAssertEqual(daemon.takeCalls(), [.pauseOutput])
        daemon.forward(daemon.engine.activate(voip).effects)
        daemon.forward(daemon.engine.deactivate(voip, options: .notifyOthersOnDeactivation).effects)
        XCTAssertEqual(daemon.takeCalls(), [], "it was not playing: no Play")
    }

    func testEffectsAddressedAsSessionEventPairs() {
        var engine = PolicyEngine()
        let a = engine.register(), b = engine.register()
        let volume = (try? engine.setOutputVolume(0.9)) ?? []
        let pairs = volume.addressed(to: engine.sessionIDs)
        XCTAssertEqual(pairs.map(\.0), [a, b])
        XCTAssertEqual(pairs.map(\.1), [.outputVolumeChanged(0.9), .outputVolumeChanged(0.9)])
        let hint = [PolicyEffect(.everySessionExcept(a), .secondaryAudioHint(.begin)), .to(a, .ducking(.began))]
        XCTAssertEqual(hint.addressed(to: [a, b]).map(\.0), [b, a])
    }
}
